// Every thread takes a ticket from one global counter and writes its id at
// the ticket's slot: the slots must end up a permutation of the ids, however
// the SMs' atomics interleave (a whole-GPU test of atomics whose returned
// value is used).
__global__ void ticket(int *counter, int *slots) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    int t = atomicAdd(counter, 1);
    slots[t] = id;
}
