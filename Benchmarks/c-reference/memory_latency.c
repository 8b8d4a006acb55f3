/* memory_latency: what one dependent memory read costs on this machine (issue #16, `iin-lookup`).
 *
 *   cc -O2 -o memory_latency memory_latency.c
 *   memory_latency [MiB] [huge]      (default 64 MiB, 4 KiB pages; huge = 1 advises MADV_HUGEPAGE)
 *
 * A pointer chase: one pointer per 64-byte line of a MiB-sized, 2 MiB-aligned anonymous mapping,
 * linked in a random order, followed for 20 M steps after a warm-up. Every load depends on the
 * previous one, so the time per step is the latency of a read that misses the caches (and, on
 * 4 KiB pages, usually the TLB). A table lookup that makes k dependent reads into memory of that
 * size cannot take less than k times this. Benchmarks/README.md has the figures of the project VM. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    size_t bytes = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 20;
    int huge = argc > 2 ? atoi(argv[2]) : 0;
    size_t n = bytes / 64; // one pointer per cache line
    char *mem = mmap(NULL, bytes + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *base = (char *)(((uintptr_t)mem + (2 << 20) - 1) & ~((uintptr_t)(2 << 20) - 1));
    if (huge) madvise(base, bytes, MADV_HUGEPAGE); else madvise(base, bytes, MADV_NOHUGEPAGE);
    size_t *perm = malloc(n * sizeof *perm);
    for (size_t i = 0; i < n; i++) perm[i] = i;
    srand(7);
    for (size_t i = n - 1; i > 0; i--) { size_t j = ((size_t)rand() * 65536 + rand()) % (i + 1); size_t t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    for (size_t i = 0; i < n; i++) *(char **)(base + perm[i] * 64) = base + perm[(i + 1) % n] * 64;
    char *p = base + perm[0] * 64;
    size_t steps = 20000000;
    for (size_t i = 0; i < 1000000; i++) p = *(char **)p;
    double t0 = now();
    for (size_t i = 0; i < steps; i++) p = *(char **)p;
    double t1 = now();
    printf("%zu MiB %s pages: %.1f ns per dependent read (%p)\n", bytes >> 20, huge ? "2 MiB" : "4 KiB", (t1 - t0) / steps * 1e9, (void *)p);
}
