/* main.cu - `make predict LAB=NN` (predict.h): asks the questions the
 * answers file does not answer yet (when someone is at the terminal), keeps
 * the answers there, then measures each answered question and says right
 * or missed, with the reasoning for a miss. Counts are only shown for
 * questions already answered: the tool never hands out an answer first.
 *
 * usage: predict ANSWERS_FILE   (exit 0 once it has run, 2 on a bad file)
 *        predict --counts       (make counts: the student's kernels' counts) */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include "lab_spec.h"
#include "predict.h"

extern "C" const lab_device LAB_DEVICE;

bool predict_call(predict_who who, const std::int64_t *dims, unsigned long long max_blocks,
                  emu::kernel_count *k, char *why, std::size_t size)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    std::vector<void *> ptr(LAB_MAX_BUFFERS, nullptr);
    /* Inputs as the grader makes them (the public seed), so that kernels
     * whose path depends on the data take their usual one; outputs zero. */
    lab_case c{};
    for (int d = 0; d < spec->n_dims; d++) c.dims[d] = dims[d];
    bool ok = true;
    for (int b = 0; b < spec->n_buffers && ok; b++) {
        std::size_t count = spec->buffer_count(b, dims), bytes = count * lab_elem_size(spec->buffers[b].elem);
        ok = cudaMalloc(&ptr[b], bytes ? bytes : 1) == cudaSuccess && cudaMemset(ptr[b], 0, bytes) == cudaSuccess;
        if (ok && bytes && spec->buffers[b].role != BUF_OUTPUT && spec->generate) {
            std::vector<unsigned char> host(bytes);
            spec->generate(b, &c, 1, host.data(), count);
            ok = cudaMemcpy(ptr[b], host.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess;
        }
    }
    if (!ok) {
        std::snprintf(why, size, "the emulation could not allocate the buffers");
        return false;
    }
    emu::counters_start(max_blocks);
    lab_call_fn fn = who == PREDICT_BASELINE ? LAB_DEVICE.baseline : LAB_DEVICE.submission;
    cudaError_t e = (cudaError_t)fn(ptr.data(), dims, 0);
    cudaError_t sync = cudaDeviceSynchronize();
    for (int b = 0; b < spec->n_buffers; b++) cudaFree(ptr[b]);
    const char *whose = who == PREDICT_BASELINE ? "the baseline" : "your entry point";
    if (e != cudaSuccess || sync != cudaSuccess) {
        std::snprintf(why, size, "%s failed: %s", whose, cudaGetErrorString(e != cudaSuccess ? e : sync));
        return false;
    }
    if (!emu::counters_of(nullptr, k)) {
        std::snprintf(why, size, "%s launched no kernel (write it first)", whose);
        return false;
    }
    return true;
}

bool predict_first_launch(predict_who who, const std::int64_t *dims, unsigned long long max_blocks,
                          unsigned long long *blocks, unsigned long long *threads, char *why,
                          std::size_t size)
{
    emu::kernel_count k;
    if (!predict_call(who, dims, max_blocks, &k, why, size)) return false;
    emu::launch_record r = emu::counters_launch_at(0);
    *blocks = (unsigned long long)r.grid[0] * r.grid[1] * r.grid[2];
    *threads = (unsigned long long)r.block[0] * r.block[1] * r.block[2];
    return true;
}

bool predict_probe(const char *kernel, void (*launch)(void *in, void *out), emu::kernel_count *k,
                   char *why, std::size_t size)
{
    const std::size_t bytes = 1 << 20;
    void *in = nullptr, *out = nullptr;
    bool ok = cudaMalloc(&in, bytes) == cudaSuccess && cudaMalloc(&out, bytes) == cudaSuccess &&
              cudaMemset(in, 0, bytes) == cudaSuccess;
    if (ok) {
        emu::counters_start(0);
        launch(in, out);
        ok = cudaDeviceSynchronize() == cudaSuccess && emu::counters_of(kernel, k);
    }
    cudaFree(in);
    cudaFree(out);
    if (!ok) std::snprintf(why, size, "the emulation could not run %s", kernel);
    return ok;
}

namespace {

struct answer {
    std::string key, text;
};

std::string trim(const std::string &s)
{
    std::size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

/* "1a = 4" lines; '#' starts a comment. */
std::vector<answer> read_answers(const char *path)
{
    std::vector<answer> all;
    FILE *f = std::fopen(path, "r");
    if (!f) return all;
    char line[512];
    while (std::fgets(line, sizeof line, f)) {
        std::string s = line;
        s = s.substr(0, s.find('#'));
        std::size_t eq = s.find('=');
        if (eq == std::string::npos) continue;
        all.push_back({trim(s.substr(0, eq)), trim(s.substr(eq + 1))});
    }
    std::fclose(f);
    return all;
}

const answer *find(const std::vector<answer> &all, const char *key)
{
    for (const answer &a : all)
        if (a.key == key && !a.text.empty()) return &a;
    return nullptr;
}

bool write_answers(const char *path, const std::vector<answer> &all)
{
    FILE *f = std::fopen(path, "w");
    if (!f) return false;
    std::fprintf(f, "# Your predictions (make predict): one 'question = number' per line.\n");
    for (int i = 0; i < LAB_PREDICTIONS_COUNT; i++) {
        const predict_question &q = LAB_PREDICTIONS[i];
        const answer *a = find(all, q.key);
        std::fprintf(f, "# %s %s\n%s = %s\n", q.key, q.asks, q.key, a ? a->text.c_str() : "");
    }
    return std::fclose(f) == 0;
}

bool parse_number(const std::string &s, double *v)
{
    char *end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return end && end != s.c_str() && trim(end).empty() && std::isfinite(*v);
}

} // namespace

/* `make counts`: the student's own kernels at the lab's largest work size,
 * as the GPU's counters would see them. */
static int show_counts(void)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    const lab_case *largest = lab_largest_work_case(spec);
    if (!largest) {
        std::fprintf(stderr, "make counts: this lab has no work sizes\n");
        return 2;
    }
    const unsigned long long CAP = 64;
    char at[160] = "", why[256] = "";
    for (int d = 0; d < spec->n_dims; d++)
        std::snprintf(at + std::strlen(at), sizeof at - std::strlen(at), "%s%s = %lld", d ? ", " : "",
                      spec->dim_names[d], (long long)largest->dims[d]);
    emu::kernel_count all;
    if (!predict_call(PREDICT_SUBMISSION, largest->dims, CAP, &all, why, sizeof why)) {
        std::printf("make counts: %s\n", why);
        return 1;
    }
    std::printf("your kernels at %s (work's largest size), as a GPU would count them\n"
                "(CPU emulation, the first %llu blocks of each launch):\n",
                at, CAP);
    char name[128];
    emu::kernel_count k;
    for (int i = 0; emu::counters_kernel_at(i, name, sizeof name, &k); i++) {
        std::printf("%s: %llu launch%s, the last %u x %u x %u blocks of %u x %u x %u threads\n", name, k.launches,
                    k.launches == 1 ? "" : "es", k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1], k.block[2]);
        const struct {
            const char *what;
            const emu::memory_count *m;
            bool shared;
        } rows[] = {{"global loads ", &k.global_load, false},
                    {"global stores", &k.global_store, false},
                    {"shared loads ", &k.shared_load, true},
                    {"shared stores", &k.shared_store, true}};
        for (const auto &r : rows) {
            if (r.m->requests == 0) continue;
            double per = (double)emu::memory_units(*r.m, r.shared) / (double)r.m->requests;
            if (r.shared)
                std::printf("  %s %5.1f passes per request%s\n", r.what, per,
                            per <= 1.0 ? " (no bank conflict)" : " (a bank conflict: several words of one bank)");
            else
                std::printf("  %s %5.1f sectors per request, %5.1f%% of their bytes used\n", r.what, per,
                            100.0 * (double)r.m->bytes / (32.0 * (double)r.m->sectors));
        }
        if (k.barriers) std::printf("  barriers      %5.1f per block\n", (double)k.barriers / (double)k.blocks_run);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !std::strcmp(argv[1], "--counts")) return show_counts();
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s ANSWERS_FILE | --counts (run by make predict, make counts)\n", argv[0]);
        return 2;
    }
    const char *path = argv[1];
    std::vector<answer> answers = read_answers(path);
    /* Ask what is not answered yet, when someone is there to answer. */
    if (isatty(STDIN_FILENO)) {
        for (int i = 0; i < LAB_PREDICTIONS_COUNT; i++) {
            const predict_question &q = LAB_PREDICTIONS[i];
            if (find(answers, q.key)) continue;
            std::printf("%s. %s\n   your prediction (a number, Enter to skip): ", q.key, q.asks);
            std::fflush(stdout);
            char line[128];
            if (!std::fgets(line, sizeof line, stdin)) break;
            answers.push_back({q.key, trim(line)});
        }
    }
    if (!write_answers(path, answers)) {
        std::fprintf(stderr, "make predict: cannot write %s\n", path);
        return 2;
    }
    std::printf("your predictions (%s) against what the CPU emulation counts:\n", path);
    int answered = 0, right = 0;
    for (int i = 0; i < LAB_PREDICTIONS_COUNT; i++) {
        const predict_question &q = LAB_PREDICTIONS[i];
        const answer *a = find(answers, q.key);
        double said = 0, truth = 0;
        char note[256] = "";
        if (!a) {
            std::printf("%-3s %-12s %s\n", q.key, "not answered", q.asks);
        } else if (!parse_number(a->text, &said)) {
            std::printf("%-3s %-12s %s\n%17s'%s' is not a number\n", q.key, "unreadable", q.asks, "",
                        a->text.c_str());
        } else if (answered++, !q.measure(&truth, note, sizeof note)) {
            std::printf("%-3s %-12s %s\n%17scannot be counted: %s\n", q.key, "not measured", q.asks, "", note);
        } else {
            bool ok = std::fabs(said - truth) <= 1e-6 * std::fmax(1.0, std::fabs(truth));
            right += ok;
            std::printf("%-3s %-12s %s\n%17syou said %g; the emulation counts %g %s\n", q.key,
                        ok ? "right" : "missed", q.asks, "", said, truth, note);
            if (!ok) std::printf("%17swhy: %s\n", "", q.on_a_miss);
        }
    }
    std::printf("%d of %d answered, %d right\n", answered, LAB_PREDICTIONS_COUNT, right);
    return 0;
}
