// ATTACK: move the response file's offset back to its start, so that the
// runner's next records overwrite the ones that told of a failure. Found
// through the C library's own lseek. Defended: the fenced thread that runs
// lab functions may not touch the response file.
// EXPECT: lseek
#include <cuda_runtime.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A C library symbol found without the dynamic loader (dlsym is not on the
 * allowlist): from printf back to the library's ELF header, then through
 * its dynamic symbol table. Only allowlisted calls are used. */
static void *find_in_libc(const char *want)
{
    uintptr_t base = (uintptr_t)&printf & ~(uintptr_t)4095;
    while (memcmp((const void *)base, ELFMAG, SELFMAG) != 0) base -= 4096;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    const Elf64_Dyn *dyn = NULL;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC) dyn = (const Elf64_Dyn *)(base + ph[i].p_vaddr);
    uintptr_t symtab = 0, strtab = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_SYMTAB) symtab = dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_STRTAB) strtab = dyn->d_un.d_ptr;
    }
    if (symtab < base) symtab += base;
    if (strtab < base) strtab += base;
    const char *names = (const char *)strtab;
    for (const Elf64_Sym *s = (const Elf64_Sym *)symtab; (uintptr_t)s < strtab; s++)
        if (s->st_name && s->st_value && strcmp(names + s->st_name, want) == 0)
            return (void *)(base + s->st_value);
    return NULL;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    typedef long (*lseek_fn)(int, long, int);
    lseek_fn seek = (lseek_fn)find_in_libc("lseek");
    if (seek) seek(3, 0, 0 /* SEEK_SET */);
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
