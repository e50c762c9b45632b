// The output-file policy: atomic replacement keeping the mode, write-through for FIFOs, symlinks followed, inputs
// never overwritten, and nothing left behind when a write is abandoned.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tpbisa/io/output_file.hpp"

namespace tpbisa::io {
namespace {

class IoOutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/io_output_file.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& name : entries()) ::unlink((dir_ + "/" + name).c_str());
    ::rmdir(dir_.c_str());
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    DIR* d = ::opendir(dir_.c_str());
    while (dirent* e = d != nullptr ? ::readdir(d) : nullptr)
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.emplace_back(e->d_name);
    if (d != nullptr) ::closedir(d);
    return out;
  }
  static std::string contents(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  std::string dir_;
};

TEST_F(IoOutputFile, ReplacesARegularFileOnlyAtCommitAndKeepsItsMode) {
  std::ofstream(path("out.bin")) << "old";
  ::chmod(path("out.bin").c_str(), 0600);
  auto f = OutputFile::open(path("out.bin"));
  ASSERT_TRUE(f.ok()) << f.error().message;
  (*f)->write(std::string_view("new bytes"));
  EXPECT_EQ(contents(path("out.bin")), "old");  // nothing is visible before commit
  EXPECT_EQ(entries().size(), 2U);              // the file and its temporary
  ASSERT_TRUE((*f)->commit().ok());
  EXPECT_EQ(contents(path("out.bin")), "new bytes");
  struct stat st {};
  ASSERT_EQ(::stat(path("out.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600U);  // issue 10, B1: a 0600 OUT used to become 0644
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(IoOutputFile, RemoveTemporariesTakesEveryLiveTemporaryAndInstallsNoHandler) {
  std::ofstream(path("a.bin")) << "old";
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &before), 0);
  auto a = OutputFile::open(path("a.bin"));
  auto b = OutputFile::open(path("b.bin"));
  auto d = OutputDirectory::create(path("tree"));
  ASSERT_TRUE(a.ok() && b.ok() && d.ok());
  std::ofstream((*d)->staging() + "/member") << "x";
  ASSERT_EQ(::mkdir(((*d)->staging() + "/sub").c_str(), 0700), 0);
  std::ofstream((*d)->staging() + "/sub/deeper") << "y";
  EXPECT_EQ(entries().size(), 4U);  // a.bin and three temporaries
  // Signal dispositions belong to the program: opening outputs changed none.
  struct sigaction after {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  errno = 1234;
  remove_temporaries();  // what a signal handler calls
  EXPECT_EQ(errno, 1234);
  EXPECT_EQ(entries(), std::vector<std::string>{"a.bin"});
  EXPECT_EQ(contents(path("a.bin")), "old");
  (*a)->discard();  // the objects go quietly afterwards
  (*b)->discard();
  (*d)->discard();
  EXPECT_EQ(entries(), std::vector<std::string>{"a.bin"});
}

TEST_F(IoOutputFile, AnAbandonedWriteLeavesTheOldFileAndNoTemporary) {
  std::ofstream(path("out.bin")) << "old";
  {
    auto f = OutputFile::open(path("out.bin"));
    ASSERT_TRUE(f.ok());
    (*f)->write(std::string(200000, 'x'));
  }  // destroyed without commit
  EXPECT_EQ(contents(path("out.bin")), "old");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(IoOutputFile, FollowsSymlinksAndRefusesDanglingOnes) {
  std::ofstream(path("target.bin")) << "old";
  ASSERT_EQ(::symlink("target.bin", path("link.bin").c_str()), 0);
  auto f = OutputFile::open(path("link.bin"));
  ASSERT_TRUE(f.ok());
  (*f)->write(std::string_view("new"));
  ASSERT_TRUE((*f)->commit().ok());
  struct stat st {};
  ASSERT_EQ(::lstat(path("link.bin").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));  // the link stays a link; its target was written
  EXPECT_EQ(contents(path("target.bin")), "new");
  ASSERT_EQ(::symlink("nowhere/x", path("dangling").c_str()), 0);
  const auto d = OutputFile::open(path("dangling"));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().kind, ErrorKind::Refused);
}

TEST_F(IoOutputFile, WritesThroughAFifoInsteadOfReplacingIt) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = contents(path("fifo")); });
  auto f = OutputFile::open(path("fifo"));
  ASSERT_TRUE(f.ok());
  (*f)->write(std::string_view("through"));
  ASSERT_TRUE((*f)->commit().ok());
  reader.join();
  EXPECT_EQ(got, "through");
  struct stat st {};
  ASSERT_EQ(::lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(IoOutputFile, RefusesAnInputAsTheOutput) {
  std::ofstream(path("prog.bin")) << "input";
  ASSERT_EQ(::symlink("prog.bin", path("alias.bin").c_str()), 0);
  const std::string inputs[] = {path("prog.bin")};
  for (const char* name : {"prog.bin", "alias.bin"}) {
    const auto f = OutputFile::open(path(name), OutputOptions{inputs});
    ASSERT_FALSE(f.ok()) << name;
    EXPECT_EQ(f.error().kind, ErrorKind::Refused);
    EXPECT_NE(f.error().message.find("is also an input"), std::string::npos);
  }
  EXPECT_EQ(contents(path("prog.bin")), "input");
  const auto dir = OutputFile::open(dir_);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().message, dir_ + ": is a directory");
}

TEST_F(IoOutputFile, RefusesAnotherOutputOfTheCommandByFileOrByName) {
  // Issue 36, D02/D03: `run --trace T --out DIR` with T one of DIR's files wrote one output over the other.
  const std::string others[] = {dir_ + "/sub/../trace.jsonl"};  // not there yet: the same name in the same folder
  const OutputOptions options{{}, false, others};
  const auto checked = OutputFile::check(path("trace.jsonl"), options);
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().kind, ErrorKind::Refused);
  EXPECT_EQ(checked.error().message,
            path("trace.jsonl") + ": is also another output (" + others[0] + "); refusing to write one over the other");
  const auto opened = OutputFile::open(path("trace.jsonl"), options);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error().message, checked.error().message);
  EXPECT_TRUE(OutputFile::check(path("other.jsonl"), options).ok());
  std::ofstream(path("a.bin")) << "a";
  ASSERT_EQ(::link(path("a.bin").c_str(), path("b.bin").c_str()), 0);
  EXPECT_TRUE(same_destination(path("a.bin"), path("b.bin")));  // one inode, two names
  EXPECT_TRUE(same_destination(path("new.bin"), dir_ + "/./new.bin"));
  EXPECT_FALSE(same_destination(path("a.bin"), path("new.bin")));
  EXPECT_EQ(entries().size(), 2U);  // nothing was created but the two names
}

TEST_F(IoOutputFile, CheckRefusesWhatOpenRefusesAndCreatesNothing) {
  std::ofstream(path("in.npy")) << "input";
  ASSERT_EQ(::symlink("in.npy", path("alias.npy").c_str()), 0);
  ASSERT_EQ(::symlink("../elsewhere/x.npy", path("dangling.npy").c_str()), 0);
  const std::string inputs[] = {path("in.npy")};
  const OutputOptions options{inputs};
  EXPECT_NE(OutputFile::check(path("alias.npy"), options).error().message.find("is also an input"), std::string::npos);
  EXPECT_NE(OutputFile::check(path("dangling.npy"), options).error().message.find("is a symbolic link to nothing"),
            std::string::npos);
  EXPECT_EQ(OutputFile::check(dir_, options).error().message, dir_ + ": is a directory");
  EXPECT_TRUE(OutputFile::check(path("new.npy"), options).ok());
  EXPECT_TRUE(OutputFile::check("-", options).ok());
  EXPECT_EQ(entries().size(), 3U);  // no temporary file, no new file
}

}  // namespace
}  // namespace tpbisa::io
