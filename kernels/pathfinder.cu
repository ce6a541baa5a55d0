// Pathfinder-style dynamic programming (after Rodinia's dynproc_kernel):
// each block advances a strip of columns `steps` rows at once in shared
// memory (a pyramid with a halo of `steps` columns each side), so that
// dst[c] = wall[r][c] + min(prev[c-1], prev[c], prev[c+1]) for rows
// start+1 .. start+steps, edges clamped.
#define BLOCK 256
__global__ void pathfinder(int steps, const int *wall, const int *src, int *dst,
                           int cols, int start) {
  __shared__ int prev[BLOCK];
  __shared__ int result[BLOCK];
  int tx = threadIdx.x;
  int small = BLOCK - 2 * steps;          // columns each block owns
  int left = small * blockIdx.x - steps;  // first column of the block's window
  int xidx = left + tx;
  int valid_l = left < 0 ? -left : 0;
  int valid_r = left + BLOCK - 1 > cols - 1 ? BLOCK - 1 - (left + BLOCK - 1 - cols + 1) : BLOCK - 1;
  bool in_range = xidx >= 0 && xidx < cols;
  if (in_range)
    prev[tx] = src[xidx];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < steps; i++) {
    computed = false;
    if (tx >= i + 1 && tx <= BLOCK - i - 2 && tx >= valid_l && tx <= valid_r) {
      computed = true;
      int l = tx - 1 < valid_l ? valid_l : tx - 1;
      int r = tx + 1 > valid_r ? valid_r : tx + 1;
      int best = min(min(prev[l], prev[tx]), prev[r]);
      result[tx] = best + wall[(start + i + 1) * cols + xidx];
    }
    __syncthreads();
    if (i == steps - 1)
      break;
    if (computed)
      prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed && tx >= steps && tx < BLOCK - steps)
    dst[xidx] = result[tx];
}
