// Recursive device functions (calls that stay calls: each level's locals
// one frame up the thread's stack): Fibonacci, mutual recursion (even/odd)
// and a binary-tree walk whose depth depends on the data (divergent
// recursion), returning a struct.
__device__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int odd(int n);
__device__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }
__device__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }
struct Acc { float sum; int nodes; };
__device__ Acc walk(const float* tree, int node, int n, int depth) {
  Acc a = {0.0f, 0};
  if (node >= n) return a;
  a.sum = tree[node] * depth;
  a.nodes = 1;
  if (tree[node] > 0.0f) {   // data-dependent pruning: divergence
    Acc l = walk(tree, 2 * node + 1, n, depth + 1);
    Acc r = walk(tree, 2 * node + 2, n, depth + 1);
    a.sum += l.sum + r.sum;
    a.nodes += l.nodes + r.nodes;
  }
  return a;
}
extern "C" __global__ void recursion(const float* tree, int n, unsigned* fibs, int* parity, float* sums, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fibs[i] = fib(i % 16);
  parity[i] = even(i % 37);
  Acc a = walk(tree, i % 64, n, 1);
  sums[i] = a.sum;
  counts[i] = a.nodes;
}
