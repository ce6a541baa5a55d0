//! Decoupled affine computation (DAC) blocks: Wang and Lin, ISCA 2017
//! (seed 003), sections 3 and 4.
