// Texture objects (CUDA 13 has no texture references): tex1Dfetch on a
// linear buffer (integer coordinates; zero outside), tex2D with point and
// linear filtering under clamp and wrap addressing, an integer texture, an
// 8-bit texture read as normalized floats. The launch file describes the
// textures; each argument `{ texture = "NAME" }` passes a handle.
extern "C" __global__ void textures(cudaTextureObject_t lin, cudaTextureObject_t ints, cudaTextureObject_t point,
                                    cudaTextureObject_t bilinear, cudaTextureObject_t bytes, float* out, int* iout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // Coordinates that reach outside the 16 x 8 image on every side.
    float x = (i % 23) * 0.75f - 1.3f, y = (i / 23) * 0.6f - 0.9f;
    out[5 * i + 0] = tex1Dfetch<float>(lin, 3 * i - 7);
    out[5 * i + 1] = tex2D<float>(point, x, y);
    out[5 * i + 2] = tex2D<float>(bilinear, x, y);
    out[5 * i + 3] = tex2D<float>(bytes, x, y);
    float4 v = tex1Dfetch<float4>(lin, i);
    out[5 * i + 4] = v.x + v.w;
    iout[i] = tex1Dfetch<int>(ints, n - 1 - i);
}
