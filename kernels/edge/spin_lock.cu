// Never finishes on a SIMT GPU without independent thread scheduling: the
// lane that takes the lock waits at the loop's reconvergence point for the
// lanes still spinning, so it never releases the lock.
__global__ void spin_lock(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *count += 1;
  atomicExch(lock, 0);
}
