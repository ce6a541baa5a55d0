// Breadth-first search over a CSR graph, one search per block: block b starts
// at node sources[b] and writes the hop count of every node (or -1) to
// cost[b * nodes + v]. Each level, threads expand the frontier's nodes
// (data-dependent branches) and mark the next frontier; the block loops
// until a level adds no node.
__global__ void bfs(int nodes, const int *row_ptr, const int *adj, const int *sources,
                    int *cost, unsigned char *frontier, unsigned char *next) {
  __shared__ int changed;
  int *c = cost + blockIdx.x * nodes;
  unsigned char *f = frontier + blockIdx.x * nodes;
  unsigned char *nf = next + blockIdx.x * nodes;
  for (int v = threadIdx.x; v < nodes; v += blockDim.x) {
    c[v] = -1;
    f[v] = 0;
    nf[v] = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = sources[blockIdx.x];
    c[s] = 0;
    f[s] = 1;
  }
  for (int level = 0;; level++) {
    if (threadIdx.x == 0)
      changed = 0;
    __syncthreads();
    for (int v = threadIdx.x; v < nodes; v += blockDim.x) {
      if (f[v]) {
        f[v] = 0;
        for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
          int u = adj[e];
          if (c[u] < 0) {
            c[u] = level + 1;
            nf[u] = 1;
            changed = 1;
          }
        }
      }
    }
    __syncthreads();
    if (!changed)
      break;
    for (int v = threadIdx.x; v < nodes; v += blockDim.x) {
      f[v] = nf[v];
      nf[v] = 0;
    }
    __syncthreads();
  }
}
