// Configure-time probe: prints the SIMD targets the sanitized tree leaves out (a bit mask): every target Highway
// would compile except the best one this host runs and the static (baseline) one, which Highway always needs.
#include <hwy/targets.h>

#include <cstdint>
#include <cstdio>

int main() {
  const int64_t attainable = static_cast<int64_t>(HWY_ATTAINABLE_TARGETS);
  const int64_t runnable = attainable & static_cast<int64_t>(hwy::SupportedTargets());
  // Highway orders its targets best first in the low bits: the lowest runnable bit is the host's best target.
  const int64_t best = runnable & -runnable;
  const int64_t kept = best | static_cast<int64_t>(HWY_STATIC_TARGET);
  std::printf("%lld", static_cast<long long>(attainable & ~kept));
  return 0;
}
