// Highway's run-time entry points, opened from libhwy.so at the first kernel dispatch instead of at process start.
// Why: the shared library's static initialiser calibrates Highway's benchmark timer (about 3 ms of CPU, which no
// tpbisa code uses) in every process that links it, and only the commands that run a kernel need Highway at all
// (docs/performance-log.md, "NEFF reading"). Built when TPBISA_LAZY_HWY is on; the library then does not link libhwy.
#include <dlfcn.h>

#include <hwy/base.h>
#include <hwy/targets.h>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#ifndef TPBISA_HWY_LIBRARY
#error "TPBISA_HWY_LIBRARY names the Highway shared library to open"
#endif

namespace {

// The entry points of hwy/targets.h and hwy/base.h that the kernels' dispatch calls, by their mangled names.
struct HwyEntries {
  int64_t (*supported_targets)();
  void (*disable_targets)(int64_t);
  void (*set_supported_targets_for_test)(int64_t);
  hwy::ChosenTarget& (*get_chosen_target)();
};

[[noreturn]] void cannot_load(const char* what) {
  std::fprintf(stderr, "tpbisa: cannot load Highway from %s: %s\n", TPBISA_HWY_LIBRARY, what);
  std::abort();
}

template <typename F>
F entry(void* handle, const char* name) {
  void* p = dlsym(handle, name);
  if (p == nullptr) cannot_load(name);
  return reinterpret_cast<F>(p);
}

HwyEntries open_hwy() {
  void* handle = dlopen(TPBISA_HWY_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    cannot_load(err != nullptr ? err : "dlopen failed");
  }
  HwyEntries e{};
  e.supported_targets = entry<decltype(e.supported_targets)>(handle, "_ZN3hwy16SupportedTargetsEv");
  e.disable_targets = entry<decltype(e.disable_targets)>(handle, "_ZN3hwy14DisableTargetsEl");
  e.set_supported_targets_for_test =
      entry<decltype(e.set_supported_targets_for_test)>(handle, "_ZN3hwy26SetSupportedTargetsForTestEl");
  e.get_chosen_target = entry<decltype(e.get_chosen_target)>(handle, "_ZN3hwy15GetChosenTargetEv");
  return e;  // the handle stays open for the life of the process
}

// Opened once, thread-safely, at the first call (the one call that allocates, in dlopen); after that each call
// costs one guard check.
const HwyEntries& hwy_entries() {
  static const HwyEntries entries = open_hwy();
  return entries;
}

}  // namespace

// Present only in this configuration: lets a test tell the lazily opened library from a linked one.
extern "C" const char* tpbisa_hwy_library() {
  return TPBISA_HWY_LIBRARY;
}

namespace hwy {

int64_t SupportedTargets() {
  return hwy_entries().supported_targets();
}
void DisableTargets(int64_t disabled_targets) {
  hwy_entries().disable_targets(disabled_targets);
}
void SetSupportedTargetsForTest(int64_t targets) {
  hwy_entries().set_supported_targets_for_test(targets);
}
ChosenTarget& GetChosenTarget() {
  return hwy_entries().get_chosen_target();
}

// Highway's own Abort prints the same line and aborts; it is defined here rather than forwarded so that an assertion
// needs no library load and a variadic call needs no forwarding.
void Abort(const char* file, int line, const char* format, ...) {
  char buf[2000];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof(buf), format, args);
  va_end(args);
  std::fprintf(stderr, "Abort at %s:%d: %s\n", file, line, buf);
  std::fflush(stderr);
  std::abort();
}

}  // namespace hwy
