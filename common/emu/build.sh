#!/usr/bin/env bash
# build.sh BUILD_DIR: builds the emulation runtime (BUILD_DIR/libcudaemu.a)
# and the rewriter (BUILD_DIR/emu_rewrite) if they are missing or stale.
# EMU_FIBER_UCONTEXT=1 in the environment selects the portable ucontext
# fibers (built into BUILD_DIR as well; use a separate directory for it).
set -euo pipefail

emu_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=${1:?usage: build.sh BUILD_DIR}
mkdir -p "$build_dir/obj"

newest_source=$(ls -t "$emu_dir"/src/* "$emu_dir"/include/*.h "$emu_dir"/include/emu/*.h "$emu_dir/cuda_emu.h" \
    "$emu_dir/emu_rewrite.c" | head -1)
if [ -f "$build_dir/libcudaemu.a" ] && [ -x "$build_dir/emu_rewrite" ] &&
    [ "$build_dir/libcudaemu.a" -nt "$newest_source" ] && [ "$build_dir/emu_rewrite" -nt "$newest_source" ]; then
    exit 0
fi

fiber_flags=()
if [ "${EMU_FIBER_UCONTEXT:-0}" = 1 ]; then fiber_flags=(-DEMU_FIBER_UCONTEXT=1); fi

# Concurrent emucc runs may race to build: build in a private directory, then rename into place.
work=$(mktemp -d "$build_dir/obj/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
pids=()
for source in "$emu_dir"/src/*.cpp; do
    g++ -std=c++17 -O2 -g -Wall -Wextra -Werror "${fiber_flags[@]}" -I "$emu_dir/include" \
        -c "$source" -o "$work/$(basename "$source" .cpp).o" &
    pids+=($!)
done
gcc -c "$emu_dir/src/emu_fiber_x86_64.S" -o "$work/emu_fiber_x86_64.o" & pids+=($!)
gcc -std=c11 -O2 -Wall -Wextra -Werror "$emu_dir/emu_rewrite.c" -o "$work/emu_rewrite" & pids+=($!)
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
[ $status = 0 ] || { echo "build.sh: building the emulation runtime failed" >&2; exit 1; }
ar rcs "$work/libcudaemu.a" "$work"/*.o
mv -f "$work/emu_rewrite" "$build_dir/emu_rewrite"
mv -f "$work/libcudaemu.a" "$build_dir/libcudaemu.a"
