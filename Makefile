# The CUDA lab workbook.
#
#   make grade LAB=01 [SUBMISSION=file.cu] [STAGE=work|right|fast] [RESULTS=out.json] [SEED=n]
#                     [BUILD_ONLY=1: compile and check the rules, run nothing]
#                     [FAST_ONLY=1: time fast alone, for a file whose work and right passed before]
#   make test          the project's own tests (last line: N passed, N failed, N skipped)
#   make bench-grader [LAB=NN]  seconds per stage of grading each reference and skeleton, then one class batch per lab
#   make solutions     grade every reference solution
#   make ladder LAB=NN check and time every rung of the lab's solution ladder
#   make status [FORMAT=md]  every lab with its last result, figures and next step (md: a page with the charts)
#   make slides        one PDF deck per lab in build/slides/ (pandoc + LaTeX beamer)
#   make charts        redraw each lab's slides/ladder.png from its measured ladder, slides/ladder.json (gnuplot)
#   make plot LAB=NN   your last graded kernel beside the lab's ladder, build/last/<lab>.png (gnuplot)
#   make profile LAB=NN [SUBMISSION=file.cu] [SIZES="..."]  the GPU's counters for your kernels beside the
#                      baseline's and the reference's, each with what it says (Nsight Compute; PROFILE=1 on
#                      make grade does it after grading; RECORD=1 stores the solution's as the reference's)
#   make clean
#   make help          this list
#   make student-release DEST=dir   the tree students get: no solutions, ladders or test corpora
#   make new-lab NAME=NN-name   a new lab's starting point from templates/lab/: spec, skeleton, solution, tests, deck
#
# SM=90 picks the GPU architecture; by default it is read off the GPU, or 90
# (the H100) when there is none. NVCC=/path/to/nvcc picks the compiler.
# EMU=1 runs work and right on the CPU (the default when there is no GPU).
# A file built before, unchanged and built the same way, reuses its runner
# from BUILD_CACHE (build/cache; BUILD_CACHE= builds every file afresh).

NVCC      ?= nvcc
empty :=
space := $(empty) $(empty)
# make's own default for CC is cc, which ?= would keep: only that default is
# replaced, so CC=clang on the command line or in the environment still wins.
ifeq ($(origin CC),default)
CC        := gcc
endif
BUILD     ?= build
STAGE     ?= fast
BUILD_CACHE ?= $(BUILD)/cache
SM        ?= $(or $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '.'),90)

CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(shell command -v $(NVCC))))
CUDA_LIB  := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib $(CUDA_HOME)/lib))

# Messages are cut to fixed-size buffers on purpose, so truncation is no error.
CFLAGS    := -std=c11 -O2 -Wall -Wextra -Werror -Wno-format-truncation -Igrader -Icommon
NVFLAGS   := -O3 -lineinfo -std=c++17 -arch=sm_$(SM) -Igrader -Icommon -Xcompiler -Wall,-Wextra

LABS      := $(sort $(notdir $(wildcard labs/[0-9][0-9]-*)))
EMU_BUILD := $(BUILD)/emu
EMU_TRUSTED := $(EMU_BUILD)/trusted
# CPU emulation (common/emu): the host compiler, one fiber per CUDA thread.
EMU_CXXFLAGS := -std=c++17 -O2 -g -ffp-contract=off -fno-strict-aliasing -Wno-unknown-pragmas -Wno-attributes \
                -Icommon/emu/include -include common/emu/cuda_emu.h -Igrader -Icommon
EMU_SRCS  := $(wildcard common/emu/src/* common/emu/include/*.h common/emu/include/emu/*.h) \
             common/emu/cuda_emu.h common/emu/emu_rewrite.c
OBJ       := $(BUILD)/obj
TRUSTED   := $(BUILD)/sm_$(SM)/trusted

# The engine: the parent process that never loads student code.
GRADE_SRCS := $(filter-out grader/probe.c,$(wildcard grader/*.c))
REGISTRY   := $(OBJ)/lab_registry.c
GRADE_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(GRADE_SRCS)) $(patsubst %.c,$(OBJ)/%.o,$(wildcard labs/*/trusted/spec.c)) \
              $(OBJ)/lab_registry.o
# What the runner is linked from, besides the submission.
RUNNER_SRCS := $(wildcard grader/runner/*.cu)

.PHONY: all grade ladder predict counts profile status grade-command grader-command test bench-grader solutions clean check-lab help FORCE

# The comment blocks that start with "#   make": the commands and their variables.
help:
	@sed -n '/^#   make /,/^[^#]/{/^#/s/^# \{0,1\}//p}' $(firstword $(MAKEFILE_LIST))

all: $(BUILD)/grade $(BUILD)/probe $(foreach l,$(LABS),$(TRUSTED)/$(l)/.built $(EMU_TRUSTED)/$(l)/.built)

# The grader's own files are written under a name of this make's own (its
# process id, OWN) and renamed into place: makes side by side (gradings,
# make test's parts) then never read, link or overwrite each other's
# half-written files; the last rename wins, and every version is whole.
OWN = $@.$$$$.tmp
$(OBJ)/%.o: %.c $(wildcard grader/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $(OWN) && mv -f $(OWN) $@

# Every folder labs/NN-name/ is a lab whose spec.c defines LAB_NN_NAME; the
# registry is written from the folder list (and only replaced when it
# changes, so nothing rebuilds needlessly).
$(REGISTRY): FORCE
	@mkdir -p $(dir $@)
	@tmp=$(OWN); { echo '/* Written by make from the folders in labs/: every lab the grader knows. */'; \
	  echo '#include <stddef.h>'; echo '#include "lab_spec.h"'; \
	  for l in $(LABS); do echo "extern const lab_spec LAB_$$(echo $$l | tr 'a-z-' 'A-Z_');"; done; \
	  echo 'const lab_spec *const LAB_REGISTRY[] = {'; \
	  for l in $(LABS); do echo "    &LAB_$$(echo $$l | tr 'a-z-' 'A-Z_'),"; done; \
	  echo '    NULL,'; echo '};'; } >$$tmp; \
	  cmp -s $$tmp $@ || mv -f $$tmp $@; rm -f $$tmp

$(OBJ)/lab_registry.o: $(REGISTRY) grader/lab_spec.h
	$(CC) $(CFLAGS) -c $< -o $(OWN) && mv -f $(OWN) $@

# Linked beside and renamed into place: a grading running meanwhile keeps
# the program it started with, and never execs half a file.
$(BUILD)/grade: $(GRADE_OBJS)
	$(CC) $(CFLAGS) -o $(OWN) $^ -lm -pthread && mv -f $(OWN) $@

$(BUILD)/probe: grader/probe.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(CUDA_HOME)/include -o $(OWN) $< -L$(CUDA_LIB) -lcudart_static -ldl -lpthread -lrt && \
	  mv -f $(OWN) $@

# The runner and the shared C helpers do not depend on the lab: they are
# compiled once per architecture (and once for the CPU emulation), each
# file by its own rule so make -j builds them side by side, then copied
# into every lab's folder, which holds the names the grader links and no
# others (trusted_object() in grader/build.c).
TRUSTED_HEADERS = grader/runner/runner.h $(wildcard grader/*.h)
RUNNER_OBJS     = $(patsubst grader/runner/%.cu,$(TRUSTED)/runner/runner_%.o,$(RUNNER_SRCS)) \
                  $(TRUSTED)/runner/stats.o $(TRUSTED)/runner/lab_spec.o
EMU_RUNNER_OBJS = $(patsubst grader/runner/%.cu,$(EMU_TRUSTED)/runner/runner_%.o,$(RUNNER_SRCS)) \
                  $(EMU_TRUSTED)/runner/stats.o $(EMU_TRUSTED)/runner/lab_spec.o

# Kept: made by pattern rules only, they would count as intermediate files,
# which make deletes when it ends (and says so after make test's last line).
.SECONDARY: $(RUNNER_OBJS) $(EMU_RUNNER_OBJS)

$(TRUSTED)/runner/runner_%.o: grader/runner/%.cu $(TRUSTED_HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@

# The plain C helpers, the same for the GPU and the CPU emulation.
$(TRUSTED)/runner/%.o: grader/%.c $(TRUSTED_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(EMU_TRUSTED)/runner/%.o: grader/%.c $(TRUSTED_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(EMU_TRUSTED)/runner/runner_%.o: grader/runner/%.cu $(EMU_BUILD)/.built $(TRUSTED_HEADERS)
	@mkdir -p $(dir $@)
	$(EMU_BUILD)/emu_rewrite $< $(@:.o=.cu.cpp) && \
	  $(CXX) $(EMU_CXXFLAGS) -iquote grader/runner/ -c $(@:.o=.cu.cpp) -o $@

# Per lab: its CUDA side (the binding and the baseline) and its spec, next
# to copies of the runner's objects.
$(TRUSTED)/%/.built: labs/%/trusted/lab.cu labs/%/trusted/spec.c $(TRUSTED_HEADERS) $(RUNNER_OBJS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c labs/$*/trusted/lab.cu -o $(dir $@)lab.o
	$(CC) $(CFLAGS) -c labs/$*/trusted/spec.c -o $(dir $@)spec.o
	cp $(RUNNER_OBJS) $(dir $@)
	@touch $@

# The emulation runtime (libcudaemu.a) and the launch-syntax rewriter.
$(EMU_BUILD)/.built: $(EMU_SRCS) common/emu/build.sh
	@mkdir -p $(EMU_BUILD)
	common/emu/build.sh $(EMU_BUILD)
	@touch $@

# The emulation's headers, precompiled once: parsing them is most of an
# emulated build (about 1.1 s of a file's compile, 0.3 s with this). The
# grader compiles a submission with -include $(EMU_BUILD)/pch/cuda_emu.h,
# which g++ takes from cuda_emu.h.gch beside it; the file itself only
# includes the real header, for a g++ that cannot use the .gch (other
# flags, another version), which then reads the headers as before. Same
# compiler and flags as grader/build.c's emulated compile (-fsanitize=thread
# included: the counting hooks, which a .gch made without it would refuse).
EMU_PCH := $(EMU_BUILD)/pch/cuda_emu.h.gch
$(EMU_PCH): $(EMU_SRCS)
	@mkdir -p $(dir $@)
	@echo '#include "$(abspath common/emu/cuda_emu.h)"' >$(dir $@)cuda_emu.h
	g++ $(filter-out -include common/emu/cuda_emu.h,$(EMU_CXXFLAGS)) -fsanitize=thread -x c++-header \
	  common/emu/cuda_emu.h -o $(OWN) && mv -f $(OWN) $@

# The same trusted files as above, rewritten and compiled for the CPU, with
# the same object names (the grader links those names and no others).
$(EMU_TRUSTED)/%/.built: labs/%/trusted/lab.cu labs/%/trusted/spec.c $(TRUSTED_HEADERS) $(EMU_RUNNER_OBJS) $(EMU_PCH)
	@mkdir -p $(dir $@)
	$(EMU_BUILD)/emu_rewrite labs/$*/trusted/lab.cu $(dir $@)lab.cu.cpp && \
	  $(CXX) $(EMU_CXXFLAGS) -iquote labs/$*/trusted/ -c $(dir $@)lab.cu.cpp -o $(dir $@)lab.o
	$(CC) $(CFLAGS) -c labs/$*/trusted/spec.c -o $(dir $@)spec.o
	cp $(EMU_RUNNER_OBJS) $(dir $@)
	@touch $@

# LAB=1, LAB=01, LAB=01-vector-add and LAB=vector-add all name the same lab:
# the rule of lab_find (grader/labs.c); tests/run.sh checks that they agree.
LAB_ID = $(notdir $(firstword $(wildcard labs/$(LAB) labs/$(LAB)-* labs/0$(LAB)-* labs/[0-9][0-9]-$(LAB))))

check-lab:
	@if [ -z "$(LAB)" ]; then echo "make grade: which lab? e.g. make grade LAB=01 (labs: $(LABS))" >&2; exit 2; fi
	@if [ -z "$(LAB_ID)" ]; then echo "make grade: no lab called '$(LAB)' (labs: $(LABS))" >&2; exit 2; fi

# The grader with this checkout's paths, before any lab's arguments: the
# start of every grade command. tests/run.sh asks for it (make
# grader-command; with EMU=1, the command that emulates).
GRADER   = $(BUILD)/grade --root . --nvcc $(NVCC) --arch sm_$(SM) --include common \
	--objects $(TRUSTED) --probe $(BUILD)/probe $(if $(BUILD_CACHE),--build-cache $(BUILD_CACHE))
EMU_ARGS = --emu $(EMU_BUILD) --emu-objects $(EMU_TRUSTED)

GRADE_CMD = $(GRADER) $(EMU_ARGS) --lab $(LAB_ID) --stage $(STAGE) $(if $(filter 1 yes,$(EMU)),--emulate) \
	$(if $(SUBMISSION),--submission '$(SUBMISSION)') $(if $(RESULTS),--results '$(RESULTS)') \
	$(if $(SEED),--seed $(SEED)) $(if $(KEEP),--keep) $(if $(LADDER),--ladder) \
	$(if $(BUILD_ONLY),--build-only) $(if $(filter 1 yes,$(FAST_ONLY)),--fast-only) $(if $(filter 1 yes,$(NO_LAST)),,--keep-last $(BUILD)/last)

# ./grade takes the same arguments and keeps the grader's exit codes (0
# passed, 1 failed, 2 usage error or no verdict, 3 no GPU): scripts use it.
# make grade ends without make's own error line once the grader has given
# its verdict (0, 1 or 3): the verdict is the last line printed.
LAB_DEPS = $(BUILD)/grade $(BUILD)/probe $(TRUSTED)/$(LAB_ID)/.built $(EMU_TRUSTED)/$(LAB_ID)/.built

grade: check-lab $(LAB_DEPS)
	@$(GRADE_CMD) || { rc=$$?; [ $$rc -eq 1 ] || [ $$rc -eq 3 ] || exit $$rc; }
	$(if $(filter 1 yes,$(PROFILE)),@$(MAKE) --no-print-directory profile LAB=$(LAB_ID) SUBMISSION='$(SUBMISSION)')

# The GPU's counters for one call of your file and of the baseline, at the
# fast stage's size (or SIZES, the spec's dimensions in order), under
# Nsight Compute, beside the reference's (labs/NN-name/slides/counters.txt).
# Your file runs without the grader's sandbox: for your own code only.
profile: check-lab $(BUILD)/grade $(TRUSTED)/$(LAB_ID)/.built
	@BUILD=$(BUILD) NVCC=$(NVCC) SM=$(SM) TRUSTED=$(TRUSTED) RECORD=$(filter 1 yes,$(RECORD)) \
	  bash grader/predict/profile.sh $(LAB_ID) \
	  '$(or $(SUBMISSION),labs/$(LAB_ID)/$(if $(filter 1 yes,$(RECORD)),solution/)$(notdir $(firstword $(wildcard labs/$(LAB_ID)/*.cu))))' $(SIZES)

# Every lab's last result (make grade keeps it in $(BUILD)/last/), with the
# next step; FORMAT=md writes $(BUILD)/status.md with the ladder charts.
status:
	@bash grader/status.sh $(BUILD) $(or $(FORMAT),text)

# Check and time every rung of labs/NN-name/solution/ladder.cu in one run.
ladder: check-lab $(LAB_DEPS)
	@$(GRADE_CMD) --ladder

# Your answers to the lab's "Predict, then measure" questions against what
# the CPU emulation counts (no GPU needed); they are kept in ANSWERS.
#   make predict LAB=NN [SUBMISSION=file.cu] [ANSWERS=file]
predict: check-lab $(EMU_BUILD)/.built
	@BUILD=$(BUILD) EMU_BUILD=$(EMU_BUILD) CXX=$(CXX) CC=$(CC) EMU_CXXFLAGS='$(EMU_CXXFLAGS)' \
	  bash grader/predict/predict.sh $(LAB_ID) \
	  '$(or $(SUBMISSION),labs/$(LAB_ID)/$(notdir $(firstword $(wildcard labs/$(LAB_ID)/*.cu))))' \
	  '$(or $(ANSWERS),labs/$(LAB_ID)/my_predictions.txt)'

# Your kernels at the lab's largest work size, as a GPU's counters would see
# them (sectors per request, bank conflicts, barriers), on the CPU; LADDER=1
# counts every rung of the lab's solution ladder instead, at SIZES (the
# spec's dimensions in order, e.g. SIZES="1024 2048") or work's largest;
# RAW=1 prints them as "RUNG KIND REQUESTS UNITS" lines, for scripts.
#   make counts LAB=NN [SUBMISSION=file.cu | LADDER=1 [SIZES="..."] [RAW=1]]
counts: check-lab $(EMU_BUILD)/.built
	@BUILD=$(BUILD) EMU_BUILD=$(EMU_BUILD) CXX=$(CXX) CC=$(CC) EMU_CXXFLAGS='$(EMU_CXXFLAGS)' RUNGS_ARGS='$(if $(filter 1 yes,$(RAW)),--raw) $(SIZES)' \
	  bash grader/predict/predict.sh $(LAB_ID) \
	  '$(or $(SUBMISSION),labs/$(LAB_ID)/$(notdir $(firstword $(wildcard labs/$(LAB_ID)/*.cu))))' \
	  $(if $(filter 1 yes,$(LADDER)),--rungs,--counts)

grade-command: check-lab $(LAB_DEPS)
	@echo "$(GRADE_CMD)"

grader-command:
	@echo "$(GRADER)$(if $(filter 1 yes,$(EMU)), $(EMU_ARGS) --emulate)"

solutions: all
	@status=0; for lab in $(LABS); do \
	  $(MAKE) --no-print-directory grade LAB=$$lab SUBMISSION=labs/$$lab/solution/$$($(BUILD)/grade --lab $$lab --lab-info | sed -n 's/^student_file=//p') || status=1; \
	done; exit $$status

# Seconds per stage for every lab's reference and skeleton (LAB=NN for one).
bench-grader: all
	@BUILD=$(BUILD) LAB=$(LAB_ID) bash tests/bench_grader.sh

# The build before the tests runs on every core unless make was given -j
# itself (a serial build was 90 s of a GPU make test on 16 cores).
TEST_BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test:
	@[ -e tests/run.sh ] || { echo "make test: the tests are not in this copy (a student release?)" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_BUILD_JOBS)) all
	@BUILD=$(BUILD) NVCC=$(NVCC) SM=$(SM) CC=$(CC) CUDA_HOME=$(CUDA_HOME) TRUSTED=$(TRUSTED) REGISTRY=$(REGISTRY) \
	  bash tests/run.sh

clean:
	rm -rf $(BUILD)

# What students get: every tracked file but each lab's solution/ (the
# reference solution, its ladder and the answers to the predictions) and
# tests/ (its wrong and correct files), the project's tests (attack corpus,
# calibration), the templates and CI. It builds and grades with the public
# seed; keep the instructor seed and this full copy private.
STUDENT_WITHHELD := labs/*/solution labs/*/tests tests templates .ci
.PHONY: student-release
student-release:
	@if [ -z "$(DEST)" ]; then echo "make student-release: where to? DEST=dir" >&2; exit 2; fi
	@if [ -e "$(DEST)" ] && [ -n "$$(ls -A '$(DEST)' 2>/dev/null)" ]; then \
	  echo "make student-release: $(DEST) is not empty" >&2; exit 2; fi
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
	  { echo "make student-release: needs a git checkout (it copies the tracked files)" >&2; exit 2; }
	@mkdir -p '$(DEST)' && git ls-files -z | \
	  grep -z -v -E '^($(subst $(space),|,$(subst *,[^/]+,$(subst .,\.,$(STUDENT_WITHHELD)))))/' | \
	  xargs -0 tar -cf - | tar -xf - -C '$(DEST)'
	@for deck in '$(DEST)'/labs/*/slides/deck.md; do \
	  [ -e "$$deck" ] || continue; \
	  awk -v deck=student -f slides/version.awk "$$deck" >"$$deck.tmp" && mv "$$deck.tmp" "$$deck" || exit 1; \
	done
	@echo "wrote $(DEST): labs, grader, slides (the students' decks, no answers) and guides; withheld: $(STUDENT_WITHHELD)"

# A new lab from templates/lab/, for a placeholder problem that already
# builds and grades; templates/new_lab.sh says what it wrote and what next.
.PHONY: new-lab
new-lab:
	@templates/new_lab.sh '$(NAME)'

# ------------------------------------------------ slides and charts
# Optional tools, not needed for grading; each script says what to install.
.PHONY: slides charts
slides:
	@bash slides/build.sh $(abspath $(BUILD))/slides

charts:
	@bash slides/charts.sh

# Your last graded kernel beside the lab's ladder: $(BUILD)/last/<lab>.png
# from $(BUILD)/last/<lab>.json (make grade keeps it), or RESULTS=file.json.
.PHONY: plot
plot: check-lab
	@bash slides/charts.sh --mine '$(or $(RESULTS),$(BUILD)/last/$(LAB_ID).json)' \
	  '$(BUILD)/last/$(LAB_ID).png' labs/$(LAB_ID)/slides/ladder.json

# ------------------------------------------------ grading a class
# grader/class/README.md is the instructor's guide.
#   make class LAB=NN SUBMISSIONS=dir [OUT=dir] [COURSE=file] [GPUS=0,1|none] [JOBS=n]
#              [TIMEOUT=s] [MEM_LIMIT_MB=n] [FORCE=1] [RETRY_ERRORS=1]   (plus STAGE, SEED, EMU)
#   make class-report FROM=dir|file FORMAT=gradescope|junit|csv|summary|html [COURSE=file] [REPORT=file] [STUDENT=name]
#   make class-slurm LAB=NN SUBMISSIONS=dir OUT=dir [CHUNK=k] [SLURM_TIME=hh:mm:ss] [PARTITION=p] [ACCOUNT=a]
#   make class-merge OUT=dir [COURSE=file] TASKS="dir..."
CLASS_SRCS := $(wildcard grader/class/*.c) grader/isolate.c grader/text.c grader/labs.c grader/lab_spec.c
# The class tools find labs by name and their student files in the specs.
CLASS_SPECS = $(patsubst %.c,$(OBJ)/%.o,$(wildcard labs/*/trusted/spec.c)) $(OBJ)/lab_registry.o
CLASS_OUT   = $(or $(OUT),$(BUILD)/class-$(LAB_ID))
CLASS_OPTS  = $(if $(COURSE),--course '$(COURSE)') $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
              $(if $(MEM_LIMIT_MB),--mem-limit-mb $(MEM_LIMIT_MB))

.PHONY: class class-report class-slurm class-merge

$(BUILD)/class: $(CLASS_SRCS) $(CLASS_SPECS) $(wildcard grader/class/*.h) grader/isolate.h grader/text.h grader/labs.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igrader/class -o $@ $(CLASS_SRCS) $(CLASS_SPECS) -lm

class: check-lab $(LAB_DEPS) $(BUILD)/class
	@if [ -z "$(SUBMISSIONS)" ]; then echo "make class: which folder? SUBMISSIONS=dir" >&2; exit 2; fi
	@$(BUILD)/class batch --lab $(LAB_ID) --submissions '$(SUBMISSIONS)' --out '$(CLASS_OUT)' \
	  --grader-cmd "$(GRADE_CMD)" $(CLASS_OPTS) $(if $(GPUS),--gpus $(GPUS)) $(if $(JOBS),--jobs $(JOBS)) \
	  $(if $(FORCE),--force) $(if $(RETRY_ERRORS),--retry-errors)

class-report: $(BUILD)/class
	@$(BUILD)/class report --from '$(FROM)' --format '$(FORMAT)' $(if $(COURSE),--course '$(COURSE)') \
	  $(if $(REPORT),--out '$(REPORT)') $(if $(STUDENT),--student '$(STUDENT)')

class-slurm: check-lab $(LAB_DEPS) $(BUILD)/class
	@nvidia-smi >/dev/null 2>&1 || [ "$(origin SM)" != file ] || \
	  echo "make class-slurm: no GPU here, so the jobs build for sm_$(SM); set SM=NN for the cluster's GPUs" >&2
	@$(BUILD)/class slurm --lab $(LAB_ID) --submissions '$(SUBMISSIONS)' --out '$(CLASS_OUT)' \
	  --grader-cmd "$(GRADE_CMD)" $(CLASS_OPTS) $(if $(CHUNK),--chunk $(CHUNK)) \
	  $(if $(SLURM_TIME),--time $(SLURM_TIME)) $(if $(PARTITION),--partition $(PARTITION)) \
	  $(if $(ACCOUNT),--account $(ACCOUNT))

class-merge: $(BUILD)/class
	@$(BUILD)/class merge --out '$(OUT)' $(if $(COURSE),--course '$(COURSE)') $(TASKS)
