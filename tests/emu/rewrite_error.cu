// A deliberate compile error after rewritten constructs: the compiler must
// report it at its line in this file.
#include <cuda_runtime.h>

__global__ void k(int *out, int a, int b)
{
    __shared__ int tile[4]
        [4];
    tile[0][0] = a;
    out[0] = tile[0][0] + b;
}

int main()
{
    int *d = nullptr;
    k<<<1,
        1>>>(d,
             2, 3);
    int value = this_name_does_not_exist; // ERROR-LINE
    return value;
}
