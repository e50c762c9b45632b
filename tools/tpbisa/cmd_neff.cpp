// `tpbisa neff info|ls|extract|pack|sems`: text and JSON layouts over the library's NEFF reader and writer.
#include "commands.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exit_codes.hpp"
#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/neff_json.hpp"
#include "tpbisa/io/neff_pack.hpp"
#include "tpbisa/io/neff_text.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::cli {
namespace {

using json = nlohmann::ordered_json;

struct NeffCliOptions {
  neff::ReadOptions read;
  bool json = false;
  bool dot = false;  ///< sems: a Graphviz digraph instead of text
  std::string file;  ///< the NEFF read (info, ls, extract, sems)
  std::string dir;   ///< extract target
  io::NeffPackRequest pack;
  // act-eval
  std::string act_func, act_set;
  std::vector<std::string> act_values;
};

void add_read_options(CLI::App& app, neff::ReadOptions& o) {
  const auto number = [&app](const std::string& name, uint64_t& field, const std::string& help) {
    app.add_option_function<std::string>(
           name,
           [&field, name](const std::string& text) {
             const auto v = parse_u64(text);
             if (!v || *v == 0) throw CLI::ValidationError(name, fmt::format("'{}' is not a positive number", text));
             field = *v;
           },
           help)
        ->type_name("N");
  };
  app.add_flag("--verify-hash", o.verify_hash,
               "PROJ-CONV-X1: a payload hash that matches in neither byte order is an error (default: a warning)");
  app.add_flag("--strict-trailing", o.strict_trailing,
               "PROJ-CONV-X3: bytes after the gzip member or after the payload window are an error (default: a "
               "warning)");
  number(
      "--max-inflated", o.max_inflated_bytes,
      fmt::format("Refuse a payload that inflates to more bytes (default {} = 1 GiB)", neff::kDefaultMaxInflatedBytes));
  number("--max-member", o.max_member_bytes,
         fmt::format("Refuse a member that declares more bytes (default {} = 512 MiB)", neff::kDefaultMaxMemberBytes));
  number("--max-members", o.max_members,
         fmt::format("Refuse an archive of more members (default {})", neff::kDefaultMaxMembers));
  number(
      "--max-subgraphs", o.max_subgraphs,
      fmt::format("Refuse a kelf listing more subgraphs, the cores of a run (default {})", neff::kDefaultMaxSubgraphs));
  number("--max-json", o.max_json_bytes,
         fmt::format("Refuse a JSON member of more bytes (default {} = 64 MiB)", neff::kDefaultMaxJsonBytes));
  app.add_option_function<std::string>(
         "--max-json-depth",
         [&o](const std::string& text) {
           const auto v = parse_u64(text);
           if (!v || *v == 0 || *v > 100000)
             throw CLI::ValidationError("--max-json-depth", fmt::format("'{}' is not a depth from 1 to 100000", text));
           o.max_json_depth = static_cast<unsigned>(*v);
         },
         fmt::format("Refuse JSON nested deeper (default {})", neff::kDefaultMaxJsonDepth))
      ->type_name("N");
}

/// Reads the NEFF for a subcommand ("-": stdin), its warnings on stderr; nullopt after reporting the error.
std::optional<neff::Neff> load(const NeffCliOptions& o) {
  auto r = io::read_neff_input(o.file, o.read);
  if (!r) {
    report_error(r.error());
    return std::nullopt;
  }
  err_write(io::neff_warnings_text(*r, kToolName));
  return std::move(*r);
}

int run_info(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (o.json)
    out("{}\n", io::neff_info_json(*n).dump(2));
  else
    out_write(io::neff_info_text(*n));
  return kExitOk;
}

// ---- ls ----

int run_ls(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  out_write(o.json ? io::neff_ls_json(*n).dump(2) + '\n' : io::neff_ls_text(*n));
  return kExitOk;
}

// ---- extract ----

int run_extract(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (auto e = neff::extract(*n, o.dir)) {
    report_error(io::neff_read_error(*e));
    return kExitInput;
  }
  uint64_t total = 0;
  for (const neff::Member& m : n->members) total += m.bytes.size();
  out("extracted {} member{} ({} byte{}) into {}\n", n->members.size(), n->members.size() == 1 ? "" : "s", total,
      total == 1 ? "" : "s", o.dir);
  return kExitOk;
}

// ---- pack ----

int run_pack(const NeffCliOptions& o) {
  const auto packed = io::pack_neff_folder(o.pack);
  if (!packed) {
    report_error(packed.error());
    return kExitInput;
  }
  out_write(*packed);
  return kExitOk;
}

int run_tables(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (o.json)
    out("{}\n", io::activation_tables_json(*n).dump(2));
  else
    out("{}", io::activation_tables_text(*n));
  return kExitOk;
}

int run_act_eval(const NeffCliOptions& o) {
  std::vector<uint32_t> inputs;
  for (const std::string& t : o.act_values) {
    const auto v = io::parse_fp32_operand(t);
    if (!v) {
      report_error(fmt::format("neff act-eval: '{}' is not a number or 0x-prefixed fp32 bits", t));
      return kExitUsage;
    }
    inputs.push_back(*v);
  }
  const auto n = load(o);
  if (!n) return kExitInput;
  const Expected<io::ActEvalResult> r = io::activation_eval(*n, o.act_func, inputs, o.act_set);
  if (!r) {
    report_error(r.error());
    return kExitInput;
  }
  out_write(o.json ? io::act_eval_json(*n, *r).dump(2) + '\n' : io::act_eval_text(*r));
  return kExitOk;
}

int run_sems(const NeffCliOptions& o) {
  const auto n = load(o);
  if (!n) return kExitInput;
  if (o.json) {
    out("{}\n", io::neff_sems_json(*n).dump(2));
    return kExitOk;
  }
  const std::vector<neff::SubgraphSems> picture = neff::semaphore_picture(*n);
  out_write(o.dot ? io::neff_sems_dot(picture) : io::neff_sems_text(*n, picture));
  return kExitOk;
}

/// `neff pack`'s arguments and the header fields it sets.
void add_pack_options(CLI::App& pack, io::NeffPackRequest& o) {
  pack.add_option("DIR", o.dir, "Folder whose regular files become the members (names relative to it)")
      ->required()
      ->type_name("DIR");
  pack.add_option("OUT", o.out, "The container to write")->required()->type_name("OUT.neff");
  pack.add_option_function<std::string>(
          "--pkg-version",
          [&o](const std::string& t) {
            if (t != "1" && t != "2") throw CLI::ValidationError("--pkg-version", fmt::format("'{}' is not 1 or 2", t));
            o.pkg_version = t == "1" ? 1 : 2;
          },
          "Packaging: 2 = gzip tar with MD5 (default), 1 = plain tar with SHA-256")
      ->type_name("1|2");
  pack.add_option_function<std::string>(
          "--hash-order",
          [&o](const std::string& t) {
            if (t == "natural")
              o.hash_order = neff::HashOrder::Natural;
            else if (t == "word-le")
              o.hash_order = neff::HashOrder::WordLE;
            else
              throw CLI::ValidationError("--hash-order", fmt::format("'{}' is not natural or word-le", t));
          },
          "PROJ-CONV-X1: store the digest as computed (natural, default) or with every 4-byte group reversed "
          "(word-le, the compiler's form)")
      ->type_name("natural|word-le");
  pack.add_option("--header-from", o.header_from,
                  "Copy the header fields (name, uuid, lnc_size, feature bits, ...) from this NEFF")
      ->type_name("FILE.neff");
  pack.add_option("--name", o.name, "Header name (default: the output's file name)")->type_name("TEXT");
  const auto number = [&pack](const char* name, std::optional<uint64_t>& field, const char* help, uint64_t max) {
    pack.add_option_function<std::string>(
            name,
            [&field, name, max](const std::string& t) {
              const auto v = parse_u64(t);
              if (!v || *v > max)
                throw CLI::ValidationError(name, fmt::format("'{}' is not a number up to {}", t, max));
              field = *v;
            },
            help)
        ->type_name("N");
  };
  number("--lnc", o.lnc_size, "Header lnc_size (default 1)", UINT32_MAX);
  number("--num-tpb", o.num_tpb, "Header num_tpb (default 1)", UINT32_MAX);
  number("--feature-bits", o.feature_bits, "Header feature_bits (default 0)", UINT64_MAX);
  number("--padding", o.padding, "Zero bytes after the payload inside the data_size window (default 0)",
         uint64_t{1} << 30);
}

}  // namespace

Command register_neff(CLI::App& parent) {
  auto o = std::make_shared<NeffCliOptions>();
  CLI::App* app = parent.add_subcommand("neff", "Inspect, list, extract and pack NEFF containers (docs/neff.md)");
  app->require_subcommand(1);

  CLI::App* info = app->add_subcommand("info",
                                       "Header, hash check, target and generation, subgraphs, streams with "
                                       "their opcode counts, variables, inputs and outputs, queue sets");
  CLI::App* ls = app->add_subcommand("ls", "The archive members with their sizes and what each is");
  CLI::App* extract = app->add_subcommand("extract",
                                          "Unpack the members into a new folder (never outside it; nothing "
                                          "is left behind on failure)");
  CLI::App* pack = app->add_subcommand("pack", "Build a container from a folder (header, hash, gzip tar)");
  CLI::App* sems = app->add_subcommand(
      "sems", "The static semaphore picture: per subgraph, which words wait on each semaphore and which raise it");
  CLI::App* tables = app->add_subcommand(
      "tables", "The activation-function sets of each subgraph: functions with their ids, ranges and bucket counts");
  CLI::App* act_eval = app->add_subcommand(
      "act-eval", "Evaluate an activation function of the NEFF's own tables at values (docs/activation.md)");
  act_eval->add_option("--func", o->act_func, "The function: a name (exp, tanh, ...) or its id")
      ->required()
      ->type_name("NAME|ID");
  act_eval->add_option("--set", o->act_set, "The set (default: the first embedded set that has the function)")
      ->type_name("NAME");
  for (CLI::App* sub : {info, ls, extract, sems, tables, act_eval}) {
    sub->add_option("FILE", o->file, "The .neff file (- reads stdin)")->required()->type_name("FILE.neff");
    add_read_options(*sub, o->read);
  }
  act_eval
      ->add_option("VALUES", o->act_values,
                   "fp32 inputs: decimal numbers or 0x-prefixed bits (-- before "
                   "negative ones)")
      ->required();
  for (CLI::App* sub : {info, ls, sems, tables, act_eval})
    sub->add_flag("--json", o->json, "Print one JSON document instead of text");
  sems->add_flag("--dot", o->dot, "Print the semaphore graph for Graphviz (dot -Tsvg) instead of text")
      ->excludes(sems->get_option("--json"));
  extract->add_option("DIR", o->dir, "Folder to create (it must not exist, or be empty)")->required()->type_name("DIR");

  add_pack_options(*pack, o->pack);

  app->footer(
      "Exit codes: 0 success, 2 usage error, 3 input or output error (a container that fails a check: the "
      "message names the file, the member and the check).");
  for (CLI::App* sub : {info, ls, extract, pack, sems, tables, act_eval}) sub->footer(app->get_footer());
  return {app, [o, info, ls, extract, pack, sems, tables, act_eval] {
            if (act_eval->parsed()) return run_act_eval(*o);
            if (tables->parsed()) return run_tables(*o);
            if (info->parsed()) return run_info(*o);
            if (ls->parsed()) return run_ls(*o);
            if (extract->parsed()) return run_extract(*o);
            if (pack->parsed()) return run_pack(*o);
            if (sems->parsed()) return run_sems(*o);
            return static_cast<int>(kExitUsage);
          }};
}

}  // namespace tpbisa::cli
