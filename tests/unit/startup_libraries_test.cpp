// The libraries every process loads at start: Highway only at the first kernel dispatch, no OpenSSL (the start-up
// cost of each command, docs/performance-log.md "NEFF reading").
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/matmul.hpp"
#include "tpbisa/neff.hpp"

// Defined by the library only when it opens Highway at first use (TPBISA_LAZY_HWY); weak, so that a build which
// links Highway instead still links this test, which then checks that configuration.
extern "C" const char* tpbisa_hwy_library() __attribute__((weak));

namespace {

/// The DT_NEEDED entries of the test program itself: what the dynamic loader opened before main.
std::vector<std::string> needed_by_program() {
  std::vector<std::string> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* names = static_cast<std::vector<std::string>*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
          const auto* dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
          const char* strtab = nullptr;
          for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d)
            if (d->d_tag == DT_STRTAB) strtab = reinterpret_cast<const char*>(d->d_un.d_ptr);
          if (strtab == nullptr) continue;
          for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d)
            if (d->d_tag == DT_NEEDED) names->emplace_back(strtab + d->d_un.d_val);
        }
        return 1;  // the first object is the program
      },
      &out);
  return out;
}

bool needs(const std::vector<std::string>& needed, std::string_view prefix) {
  for (const std::string& n : needed)
    if (n.starts_with(prefix)) return true;
  return false;
}

TEST(StartupLibraries, ProgramNeedsLibc) {
  // The walk itself works: the C library is always there.
  EXPECT_TRUE(needs(needed_by_program(), "libc.so"));
}

TEST(StartupLibraries, NoOpenSsl) {
  // The hash of §3 comes from libmd, which has no start-up work.
  EXPECT_FALSE(needs(needed_by_program(), "libcrypto.so"));
  const std::vector<uint8_t> abc{'a', 'b', 'c'};
  const std::vector<uint8_t> md5 = tpbisa::neff::payload_digest(2, abc);
  const std::vector<uint8_t> want{0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                  0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};  // RFC 1321 test suite
  EXPECT_EQ(md5, want);
  const std::vector<uint8_t> sha = tpbisa::neff::payload_digest(1, abc);
  ASSERT_EQ(sha.size(), 32U);  // FIPS 180-2 example: ba7816bf ... f20015ad
  EXPECT_EQ(sha[0], 0xba);
  EXPECT_EQ(sha[1], 0x78);
  EXPECT_EQ(sha[30], 0x15);
  EXPECT_EQ(sha[31], 0xad);
}

TEST(StartupLibraries, HighwayOpenedAtFirstDispatch) {
  const std::vector<std::string> needed = needed_by_program();
  if (tpbisa_hwy_library == nullptr) {
    // Highway linked as usual (TPBISA_LAZY_HWY off): the loader opens it before main.
    EXPECT_TRUE(needs(needed, "libhwy.so"));
    return;
  }
  EXPECT_FALSE(needs(needed, "libhwy.so"));
  // A dispatch opens it (whether this one or an earlier test's), and the kernels then run on a real target.
  const std::string target = tpbisa::kernels::simd_target_name();
  EXPECT_FALSE(target.empty());
  void* h = dlopen(tpbisa_hwy_library(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(h, nullptr) << tpbisa_hwy_library();
  if (h != nullptr) dlclose(h);
}

}  // namespace
