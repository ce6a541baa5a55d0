//! Warp pre-execution (P-mode) blocks: Kim et al., HPCA 2016 (seed 000),
//! sections 4 and 5.
