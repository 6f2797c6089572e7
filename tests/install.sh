#!/usr/bin/env bash
# The installed package: `cmake --install` into a temporary prefix, then, as a user would, build
# examples/custom_policy as a project of its own with find_package(schedcheck) and run it; compile and run the same
# program through pkg-config; run the installed executable and import the installed Python module. Our own.
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=${1:?usage: install.sh BUILD_DIR SOURCE_DIR}
SRC=${2:?usage: install.sh BUILD_DIR SOURCE_DIR}
. "$(dirname "$0")/common.sh"
P="$T/prefix"
I="$SRC/examples/sla-greedy-vs-optimum.json"

cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1 || fail "cmake --install: $(tail -5 "$T/install.log")"
for f in bin/schedcheck lib/libschedcheck.so lib/cmake/schedcheck/schedcheckConfig.cmake \
         lib/cmake/schedcheck/schedcheckConfigVersion.cmake lib/pkgconfig/schedcheck.pc \
         include/schedcheck/properties/registry.hpp include/schedcheck/counterexamples/builtin.hpp; do
  [ -e "$P/$f" ] || fail "not installed: $f"
done
# Private dependencies stay private: no installed header names Z3 or Gecode.
grep -rlE "z3\+\+\.h|gecode/" "$P/include" && fail "an installed header includes Z3 or Gecode"

# 1. find_package(schedcheck) from a separate project.
cmake -S "$SRC/examples/custom_policy" -B "$T/custom" -G Ninja -DCMAKE_PREFIX_PATH="$P" >"$T/configure.log" 2>&1 ||
  fail "configure examples/custom_policy: $(tail -5 "$T/configure.log")"
cmake --build "$T/custom" >"$T/build.log" 2>&1 || fail "build examples/custom_policy: $(tail -10 "$T/build.log")"
"$T/custom/schedcheck_custom_policy" "$I" >"$T/out.json" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "custom policy: exit $rc: $(cat "$T/err")"
python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['policy'] == 'incentive-density', r['policy']
assert r['optimum']['status'] == 'optimal' and abs(r['optimum']['objective'] - 1700) < 1e-9, r['optimum']
" "$T/out.json" || fail "custom policy report: $(head -c 300 "$T/out.json")"
ldd "$T/custom/schedcheck_custom_policy" | grep -q "$P/lib/libschedcheck.so" || fail "the program does not use the installed library"

# 2. pkg-config: the g++ line of docs/api.md as it stands (my_checker.cpp being the example), and the program it
# builds runs without LD_LIBRARY_PATH (before the .pc file gave the rpath, it exited 127: library not found).
PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --exists schedcheck || fail "pkg-config does not find schedcheck"
documented=$(grep -m 1 '^g++ .*pkg-config' "$SRC/docs/api.md")
[ -n "$documented" ] || fail "docs/api.md has no g++ line with pkg-config"
mkdir "$T/pc"
cp "$SRC/examples/custom_policy/custom_policy.cpp" "$T/pc/my_checker.cpp"
(cd "$T/pc" && export PKG_CONFIG_PATH="$P/lib/pkgconfig" && eval "$documented") 2>"$T/pc.err" ||
  fail "pkg-config build ($documented): $(head -c 500 "$T/pc.err")"
if [ -x "$T/pc/my_checker" ]; then
  env -u LD_LIBRARY_PATH "$T/pc/my_checker" "$I" >/dev/null 2>"$T/pc.err"
  rc=$?
  [ "$rc" -le 1 ] || fail "the program built as docs/api.md says exits $rc: $(head -c 300 "$T/pc.err")"
else
  fail "the g++ line of docs/api.md built no my_checker"
fi

# 3. The installed executable and Python module.
"$P/bin/schedcheck" check sla-admission --policy greedy-backfilling -i "$I" >/dev/null
[ $? -eq 1 ] || fail "installed schedcheck: unexpected exit"
if ls "$P"/lib/python3/dist-packages/schedcheck*.so >/dev/null 2>&1; then
  PYTHONPATH="$P/lib/python3/dist-packages" /usr/bin/python3 -c "
import schedcheck
assert any(p['problem'] == 'sla-admission' for p in schedcheck.problems())
" || fail "the installed Python module does not import"
fi
finish install
