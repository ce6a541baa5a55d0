// One Jacobi step of a 5-point stencil on a rows x cols grid (2-D blocks);
// boundary cells are copied.
__global__ void stencil2d(const float *in, float *out, int rows, int cols, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows)
    return;
  int i = y * cols + x;
  if (x == 0 || y == 0 || x == cols - 1 || y == rows - 1) {
    out[i] = in[i];
    return;
  }
  float around = in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1];
  out[i] = c0 * in[i] + c1 * around;
}
