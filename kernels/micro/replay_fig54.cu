// Seed 004 (Turner, UBC 2012) Figure 5.4's instruction stream for one warp:
// A, a load of two lines (a DIV hazard); B, the branch half the warp takes;
// C, a load by the other half that finds no free MSHR; then the warp
// reconverges and stores. The golden test is sm/tests/suite.rs
// `replay_figure_5_4`.
__global__ void fig54(const double *a, const float *c, float *out) {
    int t = threadIdx.x;
    double x = a[t];
    float y = 1.0f;
    if (t < 16)
        y = c[t + 1024];
    out[t] = (float)x * y;
}
