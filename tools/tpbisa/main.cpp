// The tpbisa command line tool: entry point and subcommand dispatch.
#include <cstdio>

int main() {
  std::puts("tpbisa");
  return 0;
}
