// The ISA catalog: the one source of truth for opcodes, dtypes, ALU ops and the small enums.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tpbisa/generation.hpp"

namespace tpbisa {

/// The five engines of a NeuronCore, numbered as the sequencer numbers them (sequencer.md §2) and as the runtime
/// orders a NEFF's streams (neff.md §7.1): the engine whose instruction stream a word is in. The one engine enum of
/// the toolkit (the machine's `EngineId`, the NEFF model's `neff::Engine` and `StreamEngine` are this type).
enum class Engine : uint8_t { Pe = 0, Act = 1, Pool = 2, Dve = 3, Sp = 4 };
using StreamEngine = Engine;
inline constexpr std::array<Engine, 5> kEngines{Engine::Pe, Engine::Act, Engine::Pool, Engine::Dve, Engine::Sp};
inline constexpr const std::array<Engine, 5>& kStreamEngines = kEngines;
/// Engine affinity of an opcode (enums.md §1.2): the header's loose topical grouping, not a decoded field and not
/// where a word may run (that is the placement column).
enum class Affinity : uint8_t { Pe, Act, Dve, Pool, Nx, NxDma, PoolDve, DvePool, Rt, None };
/// The engines an opcode may be issued from (PROJ-CONV-F1; real-programs.md §1, §15), a column of the catalog.
enum class Placement : uint8_t {
  Any,       ///< every engine (the sequencer block, synchronisation, DMA; and every opcode not stated otherwise)
  Pe,        ///< the PE stream only
  Datapath,  ///< ACT, DVE or POOL: never PE or SP (the hardware's per-engine table is UNKNOWN)
  // The functional model's placement of the compute families (PROJ-CONV-K1, A17): checked when the word runs on a
  // known engine (WrongEngine), not by the validators.
  Dve,         ///< DVE only
  DvePool,     ///< DVE or POOL
  DvePoolAct,  ///< DVE, POOL or ACT
  Act,         ///< ACT only
  Pool,        ///< POOL only (the Pool engine's own opcodes: GATHER, SORT, POOL, CROSS_LANE_REDUCE, ...)
};
/// The header's per-enumerator maintenance comment: `// Y`, `// n`, or none.
enum class Maint : uint8_t { Yes, No, None };
/// Operand formats the toolkit models; every other opcode keeps its operand bytes raw.
enum class Format : uint8_t {
  NotModeled,
  Mem2d,
  PseudoMem2d,
  S2Bn,
  S4d4Tsm,
  CtrlNo,
  S3Lw,    ///< LDWEIGHTS 0x01 (src/families/matmul)
  S3d3Mm,  ///< MATMUL 0x02 (src/families/matmul)
  // sequencer control block (src/families/seq)
  CtrlWr,
  CtrlMv,
  CtrlAl,
  CtrlBr,
  CtrlEr,
  PollSem,
  BranchPrefetchHint,
  PseudoFunction,
  PseudoFunctionCall,
  PseudoInst,
  // Synchronisation and DMA family (src/families/sync):
  CtrlEs,
  SetOrderingMode,
  PseudoBranchLabel,
  PseudoDmaDirect2d,
  // Datapath family (src/families/datapath):
  S4d4Tr,
  S3s3d3Tt,
  D4Mr,
  // Scalar-tensor-tensor family (src/families/stt):
  S2s2d2Stt,
  S3d3TsSelect,
  // Lanes family (src/families/lanes):
  LaneMap,  ///< LOAD_MASK_SELECT 0x69
  // Tensor-scalar family (src/families/tensor_scalar):
  S3d3Ts,
  D1Rd,
  // Batch-norm statistics and search family (src/families/bnsearch):
  S4d2Bn,
  S4d4Mr,
  // Index family (src/families/index):
  D4Iota,
  S2d2TsAs,
  S2d2Rs,
  S3d3SeqBounds,
  S3d3NonzeroWithCount,
  // Pool family (src/families/pool):
  S4d4Gt,
  S4d4Ic,
  S1d2Sort,
  S4d4Pl,
  S4d4Cr,
  // Activation family (src/families/act):
  S3d3Ac,
  S3d3Aq,
  S2d2Ac,
  PseudoLoadActFuncSet,
  // DMA family (src/families/dma):
  DmaDirect2d,
  DmaIndirect1d,
  DmaDirect2dXpose,
  DmaGatherXpose,
  PseudoDmaTrigger,
  PseudoTriggerCollective,
  // RNG family (src/families/rng):
  S3d3Dropout,
  D4Rand,
  S1Rand,
  D3Rand,
  // Sparse matmul family (src/families/sparse):
  S4d3Mm,
  // Public-layout family (src/families/publayout):
  S3d3CpPredScalar,
  S3d3Collective,
  // Tensor-dequantize family (src/families/dequant):
  S3d3TensDequant,
  // Sparsity-compress family (src/families/sc):
  S3d3Sc,
  S2d2d2Sc,
  // Conversion-LUT family (src/families/convlut):
  S2Convlut,
  // PE seed family (src/families/peseed):
  S2s1d2PeSeed,
  // Test-event-semaphore family (src/families/testsem):
  CtrlTestEs,
  // Compact-control family (src/families/cci):
  CtrlCci,
};

/// Pseudo-ness of an opcode (enums.md §1.1): the runtime band 0xC1-0xDF is lowered or patched by the runtime and
/// never decoded by hardware.
enum class Band : uint8_t { Real, Pseudo };

struct OpcodeInfo {
  uint8_t value;
  std::string_view enum_name;  ///< NEURON_ISA_TPB_OPCODE_<enum_name>
  std::string_view mnemonic;   ///< CamelCase of enum_name
  Affinity affinity;
  Maint maint;
  GenSet gens;
  Format format;
  std::string_view struct_name;  ///< ISA operand struct where the spec names it, else empty
  Band band = Band::Real;
  Placement placement = Placement::Any;
  /// Set where no public source gives the operand layout (opcode-research.md §A.1 "—"): the source that would settle
  /// it. Decode and `catalog --coverage` report such an opcode as `layout not public`; its words stay `.raw`.
  std::string_view layout_not_public = {};
  /// Where the spec README's opcode table binds no struct to a modeled opcode: the spec file that names the struct
  /// beside the opcode (opcode-research.md), or why the catalog names it itself. Empty where the README binds it.
  std::string_view struct_source = {};
  constexpr bool pseudo() const { return band == Band::Pseudo; }
};

// clang-format off
inline constexpr std::array<OpcodeInfo, 172> kOpcodes{{
    {0x01, "LDWEIGHTS", "Ldweights", Affinity::Pe, Maint::Yes, GenSet{0xF}, Format::S3Lw, "S3_LW", Band::Real, Placement::Pe},
    {0x02, "MATMUL", "Matmul", Affinity::Pe, Maint::Yes, GenSet{0xF}, Format::S3d3Mm, "S3D3_MM", Band::Real, Placement::Pe},
    {0x03, "PE_REG_WRITE", "PeRegWrite", Affinity::Pe, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of the PE config-register write (not named in the public header quotes; opcode-research.md §A.2.11, §F)"},
    {0x04, "WEIGHT_MASK", "WeightMask", Affinity::Pe, Maint::No, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the TONGA-era struct of the deprecated structured-sparsity weight mask (opcode-research.md §A.2.11)"},
    {0x05, "WEIGHT_SHIFT", "WeightShift", Affinity::Pe, Maint::No, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the TONGA-era struct of the deprecated structured-sparsity weight shift (opcode-research.md §A.2.11)"},
    {0x06, "LDTAGS", "Ldtags", Affinity::Pe, Maint::Yes, GenSet{0xE}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_s3_lt.h, S3_LT: the wiki's sparsity-compress-tag page (§6b) places five of its fields, not its source pattern or in_dtype (opcode-research.md §A.2.11, §F; PROJ-CONV-SP2)"},
    {0x07, "MATMUL_SPARSE", "MatmulSparse", Affinity::Pe, Maint::Yes, GenSet{0xE}, Format::S4d3Mm, "S4D3_MM", Band::Real, Placement::Pe, {}, "opcode-research.md"},
    {0x08, "PE_MANAGE_SEED", "PeManageSeed", Affinity::Pe, Maint::Yes, GenSet{0xC}, Format::S2s1d2PeSeed, "S2S1D2_PE_SEED", Band::Real, Placement::Pe, {}, "ours: opcode-research.md names no struct for PE_MANAGE_SEED; the wiki's pe-matmul page (§4) quotes s2s1d2_pe_seed.h, bound to the opcode by struct2opcode"},
    {0x09, "LDWEIGHTS_MX", "LdweightsMx", Affinity::Pe, Maint::Yes, GenSet{0xC}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_smx1_lw.h, SMX1_LW (MARIANA, MAVERICK; pe-matmul.md §5 names the struct and its MXMEM_PATTERN1D operand, no offsets)"},
    {0x0A, "MATMUL_MX", "MatmulMx", Affinity::Pe, Maint::Yes, GenSet{0xC}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_smx1d3_mm.h, SMX1D3_MM (MARIANA, MAVERICK; pe-matmul.md §5 names the struct and its MXMEM_PATTERN1D operand, no offsets)"},
    {0x21, "ACTIVATE", "Activate", Affinity::Act, Maint::Yes, GenSet{0xF}, Format::S3d3Ac, "S3D3_AC", Band::Real, Placement::Act},
    {0x22, "ACTIVATE_QUANTIZE", "ActivateQuantize", Affinity::Act, Maint::Yes, GenSet{0xF}, Format::S3d3Aq, "S3D3_AQ", Band::Real, Placement::Act},
    {0x23, "ACTIVATION_TABLE_LOAD", "ActivationTableLoad", Affinity::Act, Maint::Yes, GenSet{0xF}, Format::CtrlNo, "CTRL_NO", Band::Real, Placement::Act},
    {0x24, "ACTIVATION_READ_ACCUMULATOR", "ActivationReadAccumulator", Affinity::Act, Maint::Yes, GenSet{0xF}, Format::D1Rd, "D1_RD", Band::Real, Placement::Act},
    {0x25, "ACTIVATE2", "Activate2", Affinity::Act, Maint::Yes, GenSet{0xC}, Format::S2d2Ac, "S2D2_AC", Band::Real, Placement::Act},
    {0x26, "ACTIVATE_MULTIPASS", "ActivateMultipass", Affinity::Act, Maint::Yes, GenSet{0x8}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_s1s2d2_am.h, S1S2D2_AM (MAVERICK; the wiki names the struct only, opcode-research.md §A.2.1)"},
    {0x30, "EXPONENTIAL", "Exponential", Affinity::Dve, Maint::None, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::Dve},
    {0x41, "TENSOR_TENSOR_ARITH_OP", "TensorTensorArithOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3s3d3Tt, "S3S3D3_TT", Band::Real, Placement::Datapath},
    {0x42, "TENSOR_REDUCE_ARITH_OP", "TensorReduceArithOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::DvePool},
    {0x43, "TENSOR_SCALAR_ARITH_OP", "TensorScalarArithOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::DvePoolAct},
    {0x44, "TENSOR_SCALAR_PTR_ARITH_OP", "TensorScalarPtrArithOp", Affinity::Pool, Maint::No, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::DvePool},
    {0x45, "POOL", "Pool", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Pl, "S4D4_PL", Band::Real, Placement::Pool, {}, "opcode-research.md"},
    {0x46, "COPY", "Copy", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Datapath},
    {0x47, "CAST", "Cast", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Datapath},
    {0x48, "RECIPROCAL", "Reciprocal", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Dve},
    {0x49, "MEMSET", "Memset", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::D4Mr, "D4_MR", Band::Real, Placement::Datapath},
    {0x4A, "REG_LOAD", "RegLoad", Affinity::Pool, Maint::No, GenSet{0xF}, Format::NotModeled, "S4_RL", Band::Real, Placement::Any, "the field table of S4_RL, REG_LOAD: the struct is named beside the opcode (mem2d.md), never quoted; dormant on every generation (opcode-catalog-ledger.md §2.4)"},
    {0x4B, "REG_STORE", "RegStore", Affinity::Pool, Maint::No, GenSet{0xF}, Format::D4Mr, "D4_MR", Band::Real, Placement::Pool, {}, "ours: opcode-research.md names no struct for REG_STORE; d4_mr.h binds it to D4_MR (real-programs.md §12.1)"},
    {0x4C, "REG_SHUFFLE", "RegShuffle", Affinity::Pool, Maint::No, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of REG_SHUFFLE: no struct is named; dormant on every generation (opcode-catalog-ledger.md §2.4)"},
    {0x4D, "RNG", "Rng", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the instruction_mapping.json binding of RNG 0x4D on every generation: the wiki binds D3_RAND to RAND2 alone (rng-seed-state-ops.md) and to RAND2 and RNG (rng-lfsr-dispatch.md), and d3_rand.h ships only for MARIANA and MAVERICK (opcode-research.md §A.2.8)"},
    {0x4E, "TENSOR_CUMULATIVE_ARITH_OP", "TensorCumulativeArithOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Dve},
    {0x4F, "TENSOR_SCALAR_PTR_MULTI_ARITH", "TensorScalarPtrMultiArith", Affinity::Dve, Maint::No, GenSet{0xF}, Format::S4d4Tsm, "S4D4_TSM"},
    {0x51, "TENSOR_TENSOR_BITVEC_OP", "TensorTensorBitvecOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3s3d3Tt, "S3S3D3_TT", Band::Real, Placement::DvePool},
    {0x52, "TENSOR_REDUCE_BITVEC_OP", "TensorReduceBitvecOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::DvePool},
    {0x53, "TENSOR_SCALAR_BITVEC_OP", "TensorScalarBitvecOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::DvePool},
    {0x54, "TENSOR_SCALAR_PTR_BITVEC_OP", "TensorScalarPtrBitvecOp", Affinity::Pool, Maint::No, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::DvePool},
    {0x58, "MAX_POOL_SELECT", "MaxPoolSelect", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Pl, "S4D4_PL", Band::Real, Placement::Pool, {}, "ours: opcode-research.md names no struct for MAX_POOL_SELECT; the wiki's struct2opcode binds it to S4D4_PL with POOL (avg-max-pool.md §3)"},
    {0x5E, "TENSOR_CUMULATIVE_BITVEC_OP", "TensorCumulativeBitvecOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Dve},
    {0x5F, "TENSOR_SCALAR_PTR_MULTI_BITVEC", "TensorScalarPtrMultiBitvec", Affinity::Dve, Maint::No, GenSet{0xF}, Format::S4d4Tsm, "S4D4_TSM"},
    {0x60, "BATCH_NORM_STATS", "BatchNormStats", Affinity::Dve, Maint::No, GenSet{0xF}, Format::S4d2Bn, "S4D2_BN", Band::Real, Placement::Datapath},
    {0x61, "BATCH_NORM_STATS2", "BatchNormStats2", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S4d2Bn, "S4D2_BN", Band::Real, Placement::Datapath},
    {0x62, "BATCH_NORM_AGGREGATE", "BatchNormAggregate", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S4d2Bn, "S4D2_BN", Band::Real, Placement::Datapath},
    {0x63, "BATCH_NORM_GRAD_ACCUMULATE", "BatchNormGradAccumulate", Affinity::Dve, Maint::No, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the header field table of BATCH_NORM_GRAD_ACCUMULATE: no struct is named in the public quotes (opcode-research.md §A.1 lists no layout)"},
    {0x64, "BATCH_NORM_PARAM_LOAD", "BatchNormParamLoad", Affinity::Dve, Maint::No, GenSet{0xF}, Format::S2Bn, "S2_BN"},
    {0x65, "BATCH_NORM_BACK_PROP", "BatchNormBackProp", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the header field table of BATCH_NORM_BACK_PROP: listed beside the S3S3D3_TT users with no field map (opcode-research.md §A.2.4)"},
    {0x66, "LOAD_PARAMETER_RAM", "LoadParameterRam", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of LOAD_PARAMETER_RAM: the wiki names what it loads (the DVE Parameter RAM's 256 fp32 reciprocals) but no struct (batchnorm-forward.md §1, §3)"},
    {0x67, "POOL_BUFFER_LOAD", "PoolBufferLoad", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "S4_PB", Band::Real, Placement::Any, "the field table of S4_PB, POOL_BUFFER_LOAD: only named as the load GATHER reads from (opcode-research.md §A.2.6)"},
    {0x68, "GATHER", "Gather", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Gt, "S4D4_GT", Band::Real, Placement::Pool, {}, "opcode-research.md"},
    {0x69, "LOAD_MASK_SELECT", "LoadMaskSelect", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::LaneMap, "LANE_MAP", Band::Real, Placement::Dve},
    {0x6A, "STREAM_SHUFFLE", "StreamShuffle", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Dve},
    {0x6B, "STREAM_TRANSPOSE", "StreamTranspose", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::Dve},
    {0x6C, "MAX8", "Max8", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S4d2Bn, "S4D2_BN", Band::Real, Placement::Datapath},
    {0x6D, "MATCH_VALUE_LOAD", "MatchValueLoad", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S2Bn, "S2_BN"},
    {0x6E, "FIND_INDEX8", "FindIndex8", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S4d2Bn, "S4D2_BN", Band::Real, Placement::Datapath},
    {0x6F, "MATCH_REPLACE8", "MatchReplace8", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S4d4Mr, "S4D4_MR", Band::Real, Placement::Datapath},
    {0x70, "TENSOR_SCALAR_IMM_LD_ARITH", "TensorScalarImmLdArith", Affinity::Dve, Maint::No, GenSet{0xF}, Format::S2Bn, "S2_BN"},
    {0x71, "TENSOR_SCALAR_IMM_LD_BITVEC", "TensorScalarImmLdBitvec", Affinity::Dve, Maint::No, GenSet{0xF}, Format::S2Bn, "S2_BN"},
    {0x72, "COPY_PREDICATED", "CopyPredicated", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3s3d3Tt, "S3S3D3_TT", Band::Real, Placement::Dve},
    {0x73, "ROI_ALIGN", "RoiAlign", Affinity::Pool, Maint::No, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of ROI_ALIGN: no struct is named; dormant on every generation (opcode-catalog-ledger.md §2.4)"},
    {0x74, "TENSOR_SCALAR_ADDR", "TensorScalarAddr", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the instruction_mapping.json struct of TENSOR_SCALAR_ADDR: the compiler wiki names S2D2_TS_AS, which the header's struct2opcode binds to 0x92 alone, and quotes no field table for 0x74 (opcode-research.md §A.2.2, §E)"},
    {0x76, "RAND", "Rand", Affinity::Dve, Maint::No, GenSet{0xF}, Format::D4Rand, "D4_RAND", Band::Real, Placement::DvePool, {}, "opcode-research.md"},
    {0x77, "RAND_GET_STATE", "RandGetState", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::D4Rand, "D4_RAND", Band::Real, Placement::DvePool, {}, "opcode-research.md"},
    {0x78, "RAND_SET_STATE", "RandSetState", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S1Rand, "S1_RAND", Band::Real, Placement::DvePool, {}, "opcode-research.md"},
    {0x79, "EMBEDDING_UPDATE", "EmbeddingUpdate", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of EMBEDDING_UPDATE: the wiki binds its struct to the pseudo 0xCA and names the SUNDA kernel pool_embedding_update without offsets (indirection-gather.md)"},
    {0x7A, "LOAD_POOL_ARGUMENT", "LoadPoolArgument", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of LOAD_POOL_ARGUMENT: only its builder name is public (opcode-catalog-ledger.md §2.4 lists no struct)"},
    {0x7B, "TENSOR_DEQUANTIZE", "TensorDequantize", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3TensDequant, "S3D3_TENS_DEQUANT", Band::Real, Placement::Pool, {}, "ours: opcode-research.md names no struct for TENSOR_DEQUANTIZE; the wiki's tensor-dequantize page (§2) quotes s3d3_tens_dequant.h, bound to the opcode by its header comment"},
    {0x7C, "CROSS_LANE_REDUCE_ARITH", "CrossLaneReduceArith", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Cr, "S4D4_CR", Band::Real, Placement::Pool, {}, "opcode-research.md"},
    {0x7D, "CROSS_LANE_REDUCE_BITVEC", "CrossLaneReduceBitvec", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Cr, "S4D4_CR", Band::Real, Placement::Pool, {}, "opcode-research.md"},
    {0x7E, "IOTA", "Iota", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::D4Iota, "D4_IOTA", Band::Real, Placement::Datapath},
    {0x7F, "DROPOUT", "Dropout", Affinity::PoolDve, Maint::Yes, GenSet{0xF}, Format::S3d3Dropout, "S3D3_DROPOUT", Band::Real, Placement::DvePool, {}, "opcode-research.md"},
    {0x81, "JPEG_DECODE", "JpegDecode", Affinity::Pool, Maint::No, GenSet{0xE}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_s2d2_jpeg.h: named in the header roster only; dormant (opcode-catalog-ledger.md §2.4)"},
    {0x82, "TRANSPOSE_BATCH_NORM_STATS2", "TransposeBatchNormStats2", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::S4d2Bn, "S4D2_BN", Band::Real, Placement::Datapath, {}, "opcode-research.md"},
    {0x83, "TRANSPOSE_TENSOR_REDUCE_ARITH_OP", "TransposeTensorReduceArithOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::DvePool},
    {0x84, "TRANSPOSE_TENSOR_REDUCE_BITVEC_OP", "TransposeTensorReduceBitvecOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Tr, "S4D4_TR", Band::Real, Placement::DvePool},
    {0x85, "CUSTOM_OP_HEADER", "CustomOpHeader", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of CUSTOM_OP_HEADER_STRUCT: named (SUNDA headers) without offsets (opcode-catalog-ledger.md §2.4)"},
    {0x86, "CUSTOM_OP_PAYLOAD", "CustomOpPayload", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of CUSTOM_OP_PAYLOAD_STRUCT: named (SUNDA headers) without offsets (opcode-catalog-ledger.md §2.4)"},
    {0x87, "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH", "TensorScalarPtrMultiDualArith", Affinity::Dve, Maint::No, GenSet{0x1}, Format::S4d4Tsm, "S4D4_TSM"},
    {0x88, "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC", "TensorScalarPtrMultiDualBitvec", Affinity::Dve, Maint::No, GenSet{0x1}, Format::S4d4Tsm, "S4D4_TSM"},
    {0x8A, "TENSOR_TENSOR_ADD_BF16", "TensorTensorAddBf16", Affinity::Pool, Maint::Yes, GenSet{0x1}, Format::NotModeled, "", Band::Real, Placement::Any, "the SUNDA operand struct of TENSOR_TENSOR_ADD_BF16: its kernel ships in an EXTISA container outside the public package (opcode-catalog-ledger.md §2.4, §4)"},
    {0x8B, "TENSOR_TENSOR_MULT_BF16", "TensorTensorMultBf16", Affinity::Pool, Maint::Yes, GenSet{0x1}, Format::NotModeled, "", Band::Real, Placement::Any, "the SUNDA operand struct of TENSOR_TENSOR_MULT_BF16: its kernel ships in an EXTISA container outside the public package (opcode-catalog-ledger.md §2.4, §4)"},
    {0x8C, "TENSOR_REDUCE_ADD_BF16", "TensorReduceAddBf16", Affinity::Pool, Maint::Yes, GenSet{0x1}, Format::NotModeled, "", Band::Real, Placement::Any, "the SUNDA operand struct of TENSOR_REDUCE_ADD_BF16: its kernel ships in an EXTISA container outside the public package (opcode-catalog-ledger.md §2.4, §4)"},
    {0x8D, "TENSOR_REDUCE_MAX_BF16", "TensorReduceMaxBf16", Affinity::Pool, Maint::Yes, GenSet{0x1}, Format::NotModeled, "", Band::Real, Placement::Any, "the SUNDA operand struct of TENSOR_REDUCE_MAX_BF16: its kernel ships in an EXTISA container outside the public package (opcode-catalog-ledger.md §2.4, §4)"},
    {0x8E, "BATCH_NORM_PARAM_LOAD2", "BatchNormParamLoad2", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::NotModeled, "S2_BNPL2", Band::Real, Placement::Any, "the field table of S2_BNPL2, BATCH_NORM_PARAM_LOAD2: named, never quoted (opcode-research.md §A.1)"},
    {0x8F, "TENSOR_TENSOR_SUB_BF16", "TensorTensorSubBf16", Affinity::Pool, Maint::Yes, GenSet{0x1}, Format::NotModeled, "", Band::Real, Placement::Any, "the SUNDA operand struct of TENSOR_TENSOR_SUB_BF16: its kernel ships in an EXTISA container outside the public package (opcode-catalog-ledger.md §2.4, §4)"},
    {0x92, "TENSOR_SCALAR_AFFINE_SELECT", "TensorScalarAffineSelect", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S2d2TsAs, "S2D2_TS_AS", Band::Real, Placement::Datapath},
    {0x93, "TRANSPOSE_TENSOR_SCALAR_ARITH_OP", "TransposeTensorScalarArithOp", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::Dve},
    {0x94, "BATCH_NORM_GRAD_ACCUMULATE2", "BatchNormGradAccumulate2", Affinity::Dve, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the header field table of BATCH_NORM_GRAD_ACCUMULATE2: no struct is named in the public quotes (opcode-research.md §A.1)"},
    {0x95, "MODIFY_POOL_CONFIG", "ModifyPoolConfig", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of MODIFY_POOL_CONFIG: only its builder and reserved-zero predicate names are public (opcode-catalog-ledger.md §2.4)"},
    {0x96, "SORT", "Sort", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S1d2Sort, "S1D2_SORT", Band::Real, Placement::Pool, {}, "opcode-research.md"},
    {0x98, "TENSOR_SCALAR_SELECT", "TensorScalarSelect", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3TsSelect, "S3D3_TS_SELECT", Band::Real, Placement::Dve},
    {0x99, "CAST_PREDICATED", "CastPredicated", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3s3d3Tt, "S3S3D3_TT", Band::Real, Placement::Dve},
    {0x9A, "TENSOR_SCALAR_CACHE_REDUCE", "TensorScalarCacheReduce", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::Dve},
    {0x9B, "DVE_READ_ACCUMULATOR", "DveReadAccumulator", Affinity::PoolDve, Maint::Yes, GenSet{0xF}, Format::D1Rd, "D1_RD", Band::Real, Placement::Dve},
    {0x9C, "TENSOR_REDUCE_RANGE_CHECK", "TensorReduceRangeCheck", Affinity::Pool, Maint::No, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of TENSOR_REDUCE_RANGE_CHECK: no struct is named; dormant on every generation (opcode-catalog-ledger.md §2.4)"},
    {0x9D, "SCALAR_TENSOR_TENSOR_ARITH", "ScalarTensorTensorArith", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S2s2d2Stt, "S2S2D2_STT", Band::Real, Placement::Dve},
    {0x9E, "SCALAR_TENSOR_TENSOR_BITVEC", "ScalarTensorTensorBitvec", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S2s2d2Stt, "S2S2D2_STT", Band::Real, Placement::Dve},
    {0x9F, "ENGINE_NOP", "EngineNop", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of ENGINE_NOP: the ledger names only its sequencer control class (opcode-catalog-ledger.md §2.6)"},
    {0xA0, "EVENT_SEMAPHORE", "EventSemaphore", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlEs, "CTRL_ES"},
    {0xA1, "HALT", "Halt", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlNo, "CTRL_NO"},
    {0xA2, "DRAIN", "Drain", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlNo, "CTRL_NO"},
    {0xA3, "INSTRUCTION_FLUSH", "InstructionFlush", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlNo, "CTRL_NO"},
    {0xA4, "NOP", "Nop", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlNo, "CTRL_NO"},
    {0xA5, "WRITE", "Write", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlWr, "CTRL_WR"},
    {0xA6, "NOTIFY", "Notify", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlNo, "CTRL_NO"},
    {0xA7, "MOVE", "Move", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlMv, "CTRL_MV"},
    {0xA8, "ALU_OP", "AluOp", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlAl, "CTRL_AL"},
    {0xA9, "COMPARE_BRANCH", "CompareBranch", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlBr, "CTRL_BR"},
    {0xAA, "TENSOR_LOAD", "TensorLoad", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::Mem2d, "MEM_2D"},
    {0xAB, "TENSOR_STORE", "TensorStore", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::Mem2d, "MEM_2D"},
    {0xB0, "EVENT_SEMAPHORE_RANGE_CLEAR", "EventSemaphoreRangeClear", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::CtrlEr, "CTRL_ER"},
    {0xB1, "SET_ORDERING_MODE", "SetOrderingMode", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::SetOrderingMode, "SET_ORDERING_MODE"},
    {0xB2, "MOVE_SHAPE", "MoveShape", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the operand struct of MOVE_SHAPE: the ledger names only its sequencer control class (opcode-catalog-ledger.md §2.6)"},
    {0xB3, "POLL_SEM", "PollSem", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::PollSem, "POLL_SEM"},
    {0xB4, "TEST_EVENT_SEM", "TestEventSem", Affinity::Nx, Maint::Yes, GenSet{0xC}, Format::CtrlTestEs, "CTRL_TEST_ES", Band::Real, Placement::Any, {}, "ours: opcode-research.md names no struct for TEST_EVENT_SEM; the wiki's dma-transpose-opcode-cluster page (§3f) quotes ctrl_test_es.h, bound to the opcode by struct2opcode"},
    {0xB5, "BRANCH_PREFETCH_HINT", "BranchPrefetchHint", Affinity::Nx, Maint::Yes, GenSet{0xF}, Format::BranchPrefetchHint, "BRANCH_PREFETCH_HINT"},
    {0xB6, "COMPACT_CONTROL_INST", "CompactControlInst", Affinity::Nx, Maint::Yes, GenSet{0x8}, Format::CtrlCci, "CTRL_CCI", Band::Real, Placement::Any, {}, "ours: opcode-research.md names no struct for COMPACT_CONTROL_INST; the wiki's dma-transpose-opcode-cluster page (§2, §3g) quotes ctrl_cci.h, bound to the opcode by struct2opcode"},
    {0xB8, "DMAMEMCPY", "Dmamemcpy", Affinity::NxDma, Maint::Yes, GenSet{0xF}, Format::DmaDirect2d, "DMA_DIRECT2D", Band::Real, Placement::Any, {}, "opcode-research.md"},
    {0xB9, "DMA_MEMCPY2", "DmaMemcpy2", Affinity::NxDma, Maint::Yes, GenSet{0x8}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of DMA_COPY2D, DMA_MEMCPY2's MAVERICK struct: named with its presence only (opcode-research.md §A.2; no offsets are quoted)"},
    {0xBA, "DMA_IMMEDIATE", "DmaImmediate", Affinity::NxDma, Maint::Yes, GenSet{0x8}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of DMA_IMMEDIATE's MAVERICK struct: named with its presence only (opcode-research.md §A.2; no offsets are quoted)"},
    {0xBB, "DMA_INDIRECT", "DmaIndirect", Affinity::NxDma, Maint::Yes, GenSet{0xF}, Format::DmaIndirect1d, "DMA_INDIRECT1D", Band::Real, Placement::Any, {}, "opcode-research.md"},
    {0xBC, "RANGE_SELECT", "RangeSelect", Affinity::NxDma, Maint::Yes, GenSet{0xE}, Format::S2d2Rs, "S2D2_RS", Band::Real, Placement::Datapath},
    {0xBD, "DMA_TRANSPOSE", "DmaTranspose", Affinity::NxDma, Maint::Yes, GenSet{0xE}, Format::DmaDirect2dXpose, "DMA_DIRECT2D_XPOSE", Band::Real, Placement::Any, {}, "opcode-research.md"},
    {0xBE, "GET_SEQUENCE_BOUNDS", "GetSequenceBounds", Affinity::Pool, Maint::Yes, GenSet{0xE}, Format::S3d3SeqBounds, "S3D3_SEQ_BOUNDS", Band::Real, Placement::Datapath},
    {0xBF, "SB2SB_COLLECTIVE", "Sb2sbCollective", Affinity::Pool, Maint::Yes, GenSet{0xE}, Format::S3d3Collective, "S3D3_COLLECTIVE", Band::Real, Placement::Pool, {}, "ours: opcode-research.md names no struct for SB2SB_COLLECTIVE; the wiki decodes it against S3D3_COLLECTIVE (sb2sb-remote-copy.md §2)"},
    {0xC1, "PSEUDO_DMATRIGGER", "PseudoDmatrigger", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoDmaTrigger, "PSEUDO_DMA_TRIGGER", Band::Pseudo, Placement::Any, {}, "opcode-research.md"},
    {0xC2, "PSEUDO_DMAREARM", "PseudoDmarearm", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_DMAREARM record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xC3, "PSEUDO_DMABARRIER", "PseudoDmabarrier", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_DMABARRIER record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xC4, "PSEUDO_DMAMEMCPY_FULL_IND", "PseudoDmamemcpyFullInd", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_DMAMEMCPY_FULL_IND record (the IndirectSave lowering): name only (opcode-research.md §A.2.9, §A.2.10)"},
    {0xC5, "PSEUDO_SEMAPHORE_SET", "PseudoSemaphoreSet", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_SEMAPHORE_SET record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xC6, "PSEUDO_LOAD_ACT_FUNC_SET", "PseudoLoadActFuncSet", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoLoadActFuncSet, "PSEUDO_LOAD_ACT_FUNC_SET", Band::Pseudo},
    {0xC7, "PSEUDO_TRIGGER_ALL_REDUCE", "PseudoTriggerAllReduce", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_TRIGGER_ALL_REDUCE record of libnrt's collective lowering: name only (opcode-research.md §A.2.10)"},
    {0xC8, "PSEUDO_TRIGGER_COLLECTIVE", "PseudoTriggerCollective", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoTriggerCollective, "PSEUDO_TRIGGER_COLLECTIVE", Band::Pseudo, Placement::Any, {}, "opcode-research.md"},
    {0xC9, "PSEUDO_READ_VAR_ADDR", "PseudoReadVarAddr", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_READ_VAR_ADDR record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xCA, "PSEUDO_EMBEDDING_UPDATE", "PseudoEmbeddingUpdate", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_EMBEDDING_UPDATE record (lowered to a tiled SDMA recipe): name only (opcode-research.md §A.2.10)"},
    {0xCB, "PSEUDO_SEND_RECV", "PseudoSendRecv", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_SEND_RECV record of libnrt's collective lowering (instr_col_translate_psr): name only (opcode-research.md §A.2.10)"},
    {0xCC, "PSEUDO_BRANCH_LABEL", "PseudoBranchLabel", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoBranchLabel, "PSEUDO_BRANCH_LABEL", Band::Pseudo},
    {0xCD, "PSEUDO_TENSOR_STORE", "PseudoTensorStore", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoMem2d, "PSEUDO_MEM_2D", Band::Pseudo},
    {0xCE, "PSEUDO_TENSOR_LOAD", "PseudoTensorLoad", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoMem2d, "PSEUDO_MEM_2D", Band::Pseudo},
    {0xCF, "PSEUDO_DMASWAP_QUEUE_SET", "PseudoDmaswapQueueSet", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_DMASWAP_QUEUE_SET record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xD0, "PSEUDO_SET_RNG_SEED", "PseudoSetRngSeed", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_SET_RNG_SEED record that NKI's set_rng_seed emits: name only (opcode-research.md §A.2.8, §A.2.10)"},
    {0xD1, "PSEUDO_FUNCTION_BEGIN", "PseudoFunctionBegin", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoFunction, "PSEUDO_FUNCTION", Band::Pseudo},
    {0xD2, "PSEUDO_FUNCTION_RETURN", "PseudoFunctionReturn", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoFunction, "PSEUDO_FUNCTION", Band::Pseudo},
    {0xD3, "PSEUDO_FUNCTION_CALL", "PseudoFunctionCall", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoFunctionCall, "PSEUDO_FUNCTION_CALL", Band::Pseudo},
    {0xD4, "PSEUDO_DMA_DIRECT2D", "PseudoDmaDirect2d", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoDmaDirect2d, "PSEUDO_DMA_DIRECT2D", Band::Pseudo},
    {0xD5, "PSEUDO_SYNC_BARRIER", "PseudoSyncBarrier", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_SYNC_BARRIER record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xD6, "PSEUDO_RANGE_CHECK", "PseudoRangeCheck", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_RANGE_CHECK record (lowered to a bound-check recipe): name only (opcode-research.md §A.2.10)"},
    {0xD7, "PSEUDO_JPEG_DECODE", "PseudoJpegDecode", Affinity::Rt, Maint::None, GenSet{0xE}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_JPEG_DECODE record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xD8, "PSEUDO_CORE_BARRIER", "PseudoCoreBarrier", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the full PSEUDO_CORE_BARRIER record: only a semaphore tensor at byte 0x20 and the asm text `semaphore= id=` are public (opcode-research.md §A.2.10)"},
    {0xD9, "PSEUDO_TRIGGER_COLLECTIVE2", "PseudoTriggerCollective2", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the full PSEUDO_TRIGGER_COLLECTIVE2 record: only reduce op, dtype and kind at bytes 0x0C-0x0E and an operand at 0x10 are public (opcode-research.md §A.2.10)"},
    {0xDA, "PSEUDO_EXTENSION", "PseudoExtension", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_EXTENSION record that carries 0xD9's second operand: asm text only (opcode-research.md §A.2.10)"},
    {0xDB, "PSEUDO_CUR_PROCESSING_RANK_ID", "PseudoCurProcessingRankId", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_CUR_PROCESSING_RANK_ID record (lowered to register loads): name only (opcode-research.md §A.2.10)"},
    {0xDC, "PSEUDO_GID_LOAD", "PseudoGidLoad", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_GID_LOAD record (lowered to register moves): name only (opcode-research.md §A.2.10)"},
    {0xDD, "PSEUDO_BRANCH_PREFETCH_HINT", "PseudoBranchPrefetchHint", Affinity::Rt, Maint::None, GenSet{0xF}, Format::BranchPrefetchHint, "BRANCH_PREFETCH_HINT", Band::Pseudo},
    {0xDE, "PSEUDO_TENSOR_COMPLETION", "PseudoTensorCompletion", Affinity::Rt, Maint::None, GenSet{0xF}, Format::NotModeled, "", Band::Pseudo, Placement::Any, "the PSEUDO_TENSOR_COMPLETION record of libnrt's pseudo-instruction lowering: name only (opcode-research.md §A.2.10)"},
    {0xDF, "PSEUDO_INST", "PseudoInst", Affinity::Rt, Maint::None, GenSet{0xF}, Format::PseudoInst, "PSEUDO_INST", Band::Pseudo},
    {0xE0, "SPARSITY_COMPRESS", "SparsityCompress", Affinity::Dve, Maint::Yes, GenSet{0xC}, Format::S3d3Sc, "S3D3_SC", Band::Real, Placement::Dve, {}, "ours: opcode-research.md names no struct for SPARSITY_COMPRESS; the wiki's sparsity-compress-tag page (§3a) quotes s3d3_sc.h, bound to the opcode by struct2opcode"},
    {0xE1, "SPARSITY_COMPRESS_TAG", "SparsityCompressTag", Affinity::Dve, Maint::Yes, GenSet{0xC}, Format::S2d2d2Sc, "S2D2D2_SC", Band::Real, Placement::Dve, {}, "ours: opcode-research.md names no struct for SPARSITY_COMPRESS_TAG; the wiki's sparsity-compress-tag page (§3b) quotes s2d2d2_sc.h, bound to the opcode by struct2opcode"},
    {0xE2, "RAND2", "Rand2", Affinity::Dve, Maint::Yes, GenSet{0xC}, Format::D3Rand, "D3_RAND", Band::Real, Placement::Dve, {}, "opcode-research.md"},
    {0xE3, "QUANTIZE_MX", "QuantizeMx", Affinity::Dve, Maint::Yes, GenSet{0xC}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_s3dmx1_quant.h (MARIANA, MAVERICK; the wiki names the header only, opcode-research.md §B.2)"},
    {0xE4, "CONV_LUT_LOAD", "ConvLutLoad", Affinity::Pool, Maint::Yes, GenSet{0xE}, Format::S2Convlut, "S2_CONVLUT", Band::Real, Placement::Any, {}, "ours: opcode-research.md names no struct for CONV_LUT_LOAD; the wiki's convlutload page (§4) quotes s2_convlut.h, bound to the opcode by instruction_mapping.json"},
    {0xE5, "TENSOR_TENSOR_SCAN_ARITH", "TensorTensorScanArith", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S2s2d2Stt, "S2S2D2_STT", Band::Real, Placement::Dve},
    {0xE6, "TENSOR_SCALAR_CACHE_CUMULATIVE", "TensorScalarCacheCumulative", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3Ts, "S3D3_TS", Band::Real, Placement::Dve},
    {0xE7, "INDIRECT_COPY", "IndirectCopy", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S4d4Ic, "S4D4_IC", Band::Real, Placement::Pool, {}, "opcode-research.md"},
    {0xE8, "COPY_PREDICATED_SCALAR", "CopyPredicatedScalar", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S3d3CpPredScalar, "S3D3_CP_PRED_SCALAR", Band::Real, Placement::Dve, {}, "ours: opcode-research.md names no struct for COPY_PREDICATED_SCALAR; the wiki's struct2opcode binds it to S3D3_CP_PRED_SCALAR alone (copypredicatedscalar.md §4.3)"},
    {0xE9, "DVE_READ_INDICES", "DveReadIndices", Affinity::PoolDve, Maint::Yes, GenSet{0xE}, Format::D4Mr, "D4_MR", Band::Real, Placement::Dve, {}, "ours: opcode-research.md names no struct for DVE_READ_INDICES; the wiki's struct2opcode binds it to D4_MR (dve-read-state.md §3.2)"},
    {0xEA, "SELECT_REDUCE", "SelectReduce", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::S2s2d2Stt, "S2S2D2_STT", Band::Real, Placement::Dve},
    {0xF0, "EXTENDED_INST", "ExtendedInst", Affinity::Pool, Maint::Yes, GenSet{0xF}, Format::NotModeled, "", Band::Real, Placement::Any, "the per-spec operand structs of EXTENDED_INST, the POOL escape whose spec byte selects a kernel: the wiki gives the spec-to-kernel table, no field tables (pool-ext-0xf0.md)"},
    {0xF1, "DMA_GATHER_TRANSPOSE", "DmaGatherTranspose", Affinity::Pool, Maint::Yes, GenSet{0xE}, Format::DmaGatherXpose, "DMA_GATHER_XPOSE", Band::Real, Placement::Any, {}, "ours: opcode-research.md §A.2.9 names DMA_GATHER_TRANSPOSE without its struct, the header's NEURON_ISA_TPB_DMA_GATHER_XPOSE_STRUCT"},
    {0xF2, "NONZERO_WITH_COUNT", "NonzeroWithCount", Affinity::Pool, Maint::Yes, GenSet{0xE}, Format::S3d3NonzeroWithCount, "S3D3_NONZERO_WITH_COUNT", Band::Real, Placement::Datapath},
    {0xF3, "TENSOR_TENSOR_INT_WIDE", "TensorTensorIntWide", Affinity::DvePool, Maint::Yes, GenSet{0x8}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_s2s2d2d2_tt.h, S2S2D2D2_TT (MAVERICK; the wiki names the struct and its two 32-bit destinations only)"},
    {0xF4, "TENSOR_SCALAR_INT_WIDE", "TensorScalarIntWide", Affinity::DvePool, Maint::Yes, GenSet{0x8}, Format::NotModeled, "", Band::Real, Placement::Any, "the field table of aws_neuron_isa_tpb_s2d2d2_ts_wide.h, S2D2D2_TS_WIDE (MAVERICK; the wiki names the struct and its two 32-bit destinations only)"},
    {0xFF, "INVALID", "Invalid", Affinity::None, Maint::None, GenSet{0xF}, Format::NotModeled, ""},
}};
// clang-format on

/// Element kinds of the DTYPE enum (enums.md §4).
enum class DtypeKind : uint8_t { Sentinel, UInt, SInt, Float, Scale, Coded };

struct DtypeInfo {
  uint8_t code;
  std::string_view name;        ///< NEURON_ISA_TPB_DTYPE_<name>
  std::string_view short_name;  ///< assembly / state-file spelling (u8, bf16, fp8e4, ...)
  uint8_t bits;                 ///< element width in bits; 0 = no size (INVALID)
  DtypeKind kind;
  GenSet gens;
  std::string_view layout;  ///< sign-exponent-mantissa, where a float
  std::string_view role;
  /// The NEFF signature dtype whose elements are this dtype's bits with this meaning (NumPy's name, or ml_dtypes'
  /// for bfloat16 and FP8); empty when none. FP8_EXP4 has no infinities and one NaN (memory-and-numerics.md §8.1):
  /// float8_e4m3fn, not the IEEE-like float8_e4m3 (docs/conventions.md, whole-NEFF run).
  std::string_view signature = {};
};

// clang-format off
inline constexpr std::array<DtypeInfo, 30> kDtypes{{
    {0x00, "INVALID", "invalid", 0, DtypeKind::Sentinel, GenSet{0xF}, "", "rejected everywhere"},
    {0x01, "UINT64", "u64", 64, DtypeKind::UInt, GenSet{0xF}, "", "compute, only where 64-bit is allowed", "uint64"},
    {0x02, "INT8", "i8", 8, DtypeKind::SInt, GenSet{0xF}, "", "compute", "int8"},
    {0x03, "UINT8", "u8", 8, DtypeKind::UInt, GenSet{0xF}, "", "compute", "uint8"},
    {0x04, "INT16", "i16", 16, DtypeKind::SInt, GenSet{0xF}, "", "compute", "int16"},
    {0x05, "UINT16", "u16", 16, DtypeKind::UInt, GenSet{0xF}, "", "compute", "uint16"},
    {0x06, "BFLOAT16", "bf16", 16, DtypeKind::Float, GenSet{0xF}, "1-8-7", "compute", "bfloat16"},
    {0x07, "FP16", "fp16", 16, DtypeKind::Float, GenSet{0xF}, "1-5-10 (IEEE binary16)", "compute", "float16"},
    {0x08, "INT32", "i32", 32, DtypeKind::SInt, GenSet{0xF}, "", "compute", "int32"},
    {0x09, "UINT32", "u32", 32, DtypeKind::UInt, GenSet{0xF}, "", "compute / transport", "uint32"},
    {0x0A, "FP32", "fp32", 32, DtypeKind::Float, GenSet{0xF}, "1-8-23 (IEEE binary32)", "compute", "float32"},
    {0x0B, "FP32R", "fp32r", 32, DtypeKind::Float, GenSet{0xF}, "fp32 container, \"FP22 partial\" rounded form", "output only"},
    {0x0C, "INT64", "i64", 64, DtypeKind::SInt, GenSet{0xF}, "", "compute, only where 64-bit is allowed", "int64"},
    {0x0D, "FP8_EXP3", "fp8e3", 8, DtypeKind::Float, GenSet{0xF}, "1-3-4 (E3M4)", "compute", "float8_e3m4"},
    {0x0E, "FP8_EXP4", "fp8e4", 8, DtypeKind::Float, GenSet{0xF}, "1-4-3 (E4M3)", "compute", "float8_e4m3fn"},
    {0x0F, "FP8_EXP5", "fp8e5", 8, DtypeKind::Float, GenSet{0xF}, "1-5-2 (E5M2)", "compute", "float8_e5m2"},
    {0x10, "FP4_EXP2", "fp4e2", 4, DtypeKind::Float, GenSet{0xC}, "1-2-1 (OCP FP4 E2M1)", "MX element / transport"},
    {0x11, "FP8_EXP2", "fp8e2", 8, DtypeKind::Float, GenSet{0x8}, "1-2-5 (E2M5)", "MX element / compute"},
    {0x12, "INT4", "i4", 4, DtypeKind::SInt, GenSet{0x8}, "", "MX element / transport"},
    {0x13, "SFP8_E8", "sfp8e8", 8, DtypeKind::Scale, GenSet{0x8}, "0-8-0 (E8M0)", "scale only"},
    {0x14, "SFP8_E7", "sfp8e7", 8, DtypeKind::Scale, GenSet{0x8}, "0-7-1", "scale only"},
    {0x15, "SFP8_E6", "sfp8e6", 8, DtypeKind::Scale, GenSet{0x8}, "0-6-2", "scale only"},
    {0x16, "SFP8_E5", "sfp8e5", 8, DtypeKind::Scale, GenSet{0x8}, "0-5-3", "scale only"},
    {0x19, "CPTC1", "cptc1", 1, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
    {0x1A, "CPTC2", "cptc2", 2, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
    {0x1B, "CPTC3", "cptc3", 3, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
    {0x1C, "CPTC4", "cptc4", 4, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
    {0x1D, "CPTC5", "cptc5", 5, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
    {0x1E, "CPTC6", "cptc6", 6, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
    {0x1F, "CPTC7", "cptc7", 7, DtypeKind::Coded, GenSet{0xC}, "trellis code, width = code & 7", "transport only"},
}};
// clang-format on

/// ALU-op class bits (enums.md §5.1).
enum AluClass : uint16_t {
  kAluBitvec = 1U << 0,           ///< is_bitvec_op
  kAluArith = 1U << 1,            ///< is_arith_op
  kAluGeneralArith = 1U << 2,     ///< is_general_arith_op
  kAluInt = 1U << 3,              ///< is_valid_int_aluop
  kAluSigned = 1U << 4,           ///< is_signed_alu_op
  kAluUnsigned = 1U << 5,         ///< is_unsigned_alu_op
  kAluIntDve5 = 1U << 6,          ///< is_valid_int_aluop_dve (MAVERICK)
  kAluByConventionT11 = 1U << 7,  ///< class membership rests on PROJ-CONV-T11
};

struct AluOpInfo {
  uint8_t code;
  std::string_view name;  ///< NEURON_ISA_TPB_ALU_OP_<name>
  GenSet gens;
  uint16_t classes;  ///< AluClass bits
  std::string_view computes;
  constexpr bool is(AluClass c) const { return (classes & c) != 0; }
};

// clang-format off
inline constexpr std::array<AluOpInfo, 65> kAluOps{{
    {0x00, "BYPASS", GenSet{0xF}, kAluBitvec | kAluArith | kAluGeneralArith | kAluIntDve5, "a (copy)"},
    {0x01, "BITWISE_NOT", GenSet{0xF}, kAluBitvec, "~a"},
    {0x02, "ARITH_SHIFT_LEFT", GenSet{0xF}, kAluBitvec, "a << b"},
    {0x03, "ARITH_SHIFT_RIGHT", GenSet{0xF}, kAluBitvec, "a >> b, sign-filling"},
    {0x04, "ADD", GenSet{0xF}, kAluArith | kAluGeneralArith, "a + b"},
    {0x05, "SUBTRACT", GenSet{0xF}, kAluArith | kAluGeneralArith, "a - b"},
    {0x06, "MULT", GenSet{0xF}, kAluArith | kAluGeneralArith, "a * b (ints: low bits of the product)"},
    {0x07, "DIVIDE", GenSet{0xF}, kAluArith, "a / b (float path)"},
    {0x08, "MAX", GenSet{0xF}, kAluArith | kAluGeneralArith, "max(a, b)"},
    {0x09, "MIN", GenSet{0xF}, kAluArith | kAluGeneralArith, "min(a, b)"},
    {0x0A, "BITWISE_AND", GenSet{0xF}, kAluBitvec, "a & b"},
    {0x0B, "BITWISE_OR", GenSet{0xF}, kAluBitvec, "a | b"},
    {0x0C, "BITWISE_XOR", GenSet{0xF}, kAluBitvec, "a ^ b"},
    {0x0D, "LOGICAL_AND", GenSet{0xF}, kAluArith | kAluGeneralArith, "(a≠0) && (b≠0) → 0/1"},
    {0x0E, "LOGICAL_OR", GenSet{0xF}, kAluArith | kAluGeneralArith, "(a≠0) || (b≠0) → 0/1"},
    {0x0F, "LOGICAL_XOR", GenSet{0xF}, kAluArith | kAluGeneralArith, "(a≠0) xor (b≠0) → 0/1"},
    {0x10, "LOGICAL_SHIFT_LEFT", GenSet{0xF}, kAluBitvec, "a << b"},
    {0x11, "LOGICAL_SHIFT_RIGHT", GenSet{0xF}, kAluBitvec, "a >> b, zero-filling"},
    {0x12, "IS_EQ", GenSet{0xF}, kAluArith | kAluGeneralArith, "a == b → 0/1"},
    {0x13, "IS_GT", GenSet{0xF}, kAluArith | kAluGeneralArith, "a > b → 0/1"},
    {0x14, "IS_GE", GenSet{0xF}, kAluArith | kAluGeneralArith, "a >= b → 0/1"},
    {0x15, "IS_LE", GenSet{0xF}, kAluArith | kAluGeneralArith, "a <= b → 0/1"},
    {0x16, "IS_LT", GenSet{0xF}, kAluArith | kAluGeneralArith, "a < b → 0/1"},
    {0x17, "ABSOLUTE_DIFF", GenSet{0xF}, kAluArith | kAluGeneralArith, "|a - b|"},
    {0x18, "IS_NE", GenSet{0xF}, kAluArith | kAluGeneralArith, "a != b → 0/1"},
    {0x19, "ABSOLUTE_VALUE", GenSet{0xF}, kAluArith | kAluGeneralArith, "|a|"},
    {0x1A, "POW", GenSet{0xF}, kAluArith, "a ^ b (power; POOL only)"},
    {0x1B, "MOD", GenSet{0xF}, kAluArith | kAluInt | kAluSigned | kAluUnsigned, "a mod b, integer"},
    {0x1C, "CRC32", GenSet{0xF}, kAluBitvec, "CRC-32 step (POOL only)"},
    {0x1D, "RSQRT", GenSet{0xF}, kAluArith, "1 / sqrt(a) (POOL only)"},
    {0x20, "ABS_MAX", GenSet{0xC}, kAluArith | kAluGeneralArith, "max(|a|, |b|)"},
    {0x21, "ABS_MIN", GenSet{0xC}, kAluArith | kAluGeneralArith, "min(|a|, |b|)"},
    {0x22, "RE_LU", GenSet{0xC}, kAluArith | kAluGeneralArith, "max(a, 0)"},
    {0x23, "SQUARE", GenSet{0xC}, kAluArith | kAluGeneralArith, "a * a"},
    {0x24, "SYMMETRIC_CLAMP", GenSet{0x8}, kAluArith | kAluGeneralArith | kAluByConventionT11, "sign(a) * max(|a|, |b|) (header formula)"},
    {0xC4, "ADD_INT", GenSet{0xF}, kAluArith | kAluInt | kAluSigned | kAluUnsigned | kAluIntDve5, "integer add"},
    {0xC5, "MULT_INT", GenSet{0xF}, kAluArith | kAluInt | kAluSigned | kAluUnsigned | kAluIntDve5, "integer multiply"},
    {0xC6, "SUBTRACT_INT", GenSet{0xF}, kAluArith | kAluInt | kAluSigned | kAluUnsigned | kAluIntDve5, "integer subtract"},
    {0xC7, "DIVIDE_INT", GenSet{0xE}, kAluArith | kAluInt | kAluSigned | kAluUnsigned, "signed integer divide"},
    {0xC8, "MOD_INT", GenSet{0xE}, kAluArith | kAluInt | kAluSigned | kAluUnsigned, "signed remainder, C semantics (sign of dividend)"},
    {0xC9, "IS_EQUAL_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluUnsigned | kAluIntDve5, "a == b"},
    {0xCA, "IS_NE_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluUnsigned | kAluIntDve5, "a != b"},
    {0xCB, "ABS_MAX_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed max(|a|,|b|)"},
    {0xCC, "ABS_MIN_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed min(|a|,|b|)"},
    {0xCD, "ABS_DIFF_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed |a - b|"},
    {0xCE, "ABS_VALUE_INT", GenSet{0xE}, 0, "signed |a| (single source)"},
    {0xCF, "MAX_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed max"},
    {0xD0, "MIN_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed min"},
    {0xD1, "IS_GT_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed >"},
    {0xD2, "IS_GE_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed >="},
    {0xD3, "IS_LE_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed <="},
    {0xD4, "IS_LT_INT", GenSet{0xE}, kAluInt | kAluSigned | kAluIntDve5, "signed <"},
    {0xD5, "MAX_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned max"},
    {0xD6, "MIN_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned min"},
    {0xD7, "IS_GT_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned >"},
    {0xD8, "IS_GE_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned >="},
    {0xD9, "IS_LE_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned <="},
    {0xDA, "IS_LT_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned <"},
    {0xDB, "MULT_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned multiply"},
    {0xDC, "DIVIDE_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned divide"},
    {0xDD, "MOD_UINT", GenSet{0xE}, kAluInt | kAluUnsigned, "unsigned remainder"},
    {0xDE, "AMAX_INT", GenSet{0xE}, 0, "signed arg-max (output dtype u32 index)"},
    {0xDF, "AMIN_INT", GenSet{0xE}, 0, "signed arg-min (u32 index)"},
    {0xE0, "AMAX_UINT", GenSet{0xE}, 0, "unsigned arg-max (u32 index)"},
    {0xE1, "AMIN_UINT", GenSet{0xE}, 0, "unsigned arg-min (u32 index)"},
}};
// clang-format on

/// A named value of one of the small one-byte enums, with the generations that have it.
struct EnumValue {
  uint8_t value;
  std::string_view name;
  GenSet gens;
  std::string_view convention;  ///< PROJ-CONV id when membership rests on a convention
};

// ---- EVENTS modes (common-formats.md §3; enums.md §9, §10): what each WAIT_MODE and UPDATE_MODE value does ----

/// What a wait mode waits on.
enum class WaitKind : uint8_t {
  None,       ///< no wait
  Semaphore,  ///< a semaphore compared with a comparand
  Event,      ///< an event's state (SUNDA..MARIANA)
  Unordered,  ///< no wait, and not ordered behind earlier waits
};
/// The relation of a semaphore wait: `sem <op> comparand`.
enum class Comparator : uint8_t { None, Eq, Lt, Le, Gt, Ge };
/// Where a mode's operand comes from: the EVENTS value itself, a register named by its low byte (PROJ-CONV-C3), or
/// that register plus the value's upper 24 bits (MAVERICK SEM_*_REG_OFFSET, PROJ-CONV-C5).
enum class ModeOperand : uint8_t { None, Immediate, Register, RegisterOffset };
/// An event wait: the state waited for, and what the wait then does to the event.
enum class EventWait : uint8_t { None, Set, SetThenClear, Clear, ClearThenSet };
/// What an update mode does to its semaphore or event.
enum class UpdateAction : uint8_t { None, EventSet, EventClear, Increment, Decrement, Add, Subtract, Write };

/// One WAIT_MODE value (EVENTS byte 4, enums.md §9) and what it waits for.
struct WaitModeInfo {
  uint8_t value;
  std::string_view name;
  GenSet gens;
  std::string_view convention;  ///< PROJ-CONV id when membership rests on a convention
  WaitKind kind;
  Comparator comparator = Comparator::None;  ///< Semaphore waits
  ModeOperand operand = ModeOperand::None;   ///< Semaphore waits: the comparand's form
  EventWait event = EventWait::None;         ///< Event waits
  /// The wait may hold the word back (a semaphore or event wait; not NONE or UNORDERED).
  constexpr bool may_block() const { return kind == WaitKind::Semaphore || kind == WaitKind::Event; }
};

/// One UPDATE_MODE value (EVENTS byte 6, enums.md §10) and what it does.
struct UpdateModeInfo {
  uint8_t value;
  std::string_view name;
  GenSet gens;
  std::string_view convention;
  UpdateAction action;
  ModeOperand operand = ModeOperand::None;  ///< Add, Subtract, Write: the operand's form
  bool at_completion = false;               ///< the _COMPLETE twin: the action fires when the word completes
};

// clang-format off
/// WAIT_MODE (enums.md §9). PROJ-CONV-E3: 0x91..0x95 compare in the order of 0x01..0x05.
inline constexpr std::array<WaitModeInfo, 21> kWaitModeTable{{
    {0x00, "NONE", kGensAll, "", WaitKind::None},
    {0x01, "SEM_EQ_IMM", kGensAll, "", WaitKind::Semaphore, Comparator::Eq, ModeOperand::Immediate},
    {0x02, "SEM_LT_IMM", kGensAll, "", WaitKind::Semaphore, Comparator::Lt, ModeOperand::Immediate},
    {0x03, "SEM_LE_IMM", kGensAll, "", WaitKind::Semaphore, Comparator::Le, ModeOperand::Immediate},
    {0x04, "SEM_GT_IMM", kGensAll, "", WaitKind::Semaphore, Comparator::Gt, ModeOperand::Immediate},
    {0x05, "SEM_GE_IMM", kGensAll, "", WaitKind::Semaphore, Comparator::Ge, ModeOperand::Immediate},
    {0x06, "EVT_SET", kGensNotMaverick, "", WaitKind::Event, Comparator::None, ModeOperand::None, EventWait::Set},
    {0x07, "EVT_SET_THEN_CLEAR", kGensNotMaverick, "", WaitKind::Event, Comparator::None, ModeOperand::None, EventWait::SetThenClear},
    {0x0E, "EVT_CLEAR", kGensNotMaverick, "", WaitKind::Event, Comparator::None, ModeOperand::None, EventWait::Clear},
    {0x0F, "EVT_CLEAR_THEN_SET", kGensNotMaverick, "", WaitKind::Event, Comparator::None, ModeOperand::None, EventWait::ClearThenSet},
    {0x81, "SEM_EQ_REG", kGensAll, "", WaitKind::Semaphore, Comparator::Eq, ModeOperand::Register},
    {0x82, "SEM_LT_REG", kGensAll, "", WaitKind::Semaphore, Comparator::Lt, ModeOperand::Register},
    {0x83, "SEM_LE_REG", kGensAll, "", WaitKind::Semaphore, Comparator::Le, ModeOperand::Register},
    {0x84, "SEM_GT_REG", kGensAll, "", WaitKind::Semaphore, Comparator::Gt, ModeOperand::Register},
    {0x85, "SEM_GE_REG", kGensAll, "", WaitKind::Semaphore, Comparator::Ge, ModeOperand::Register},
    {0x91, "SEM_EQ_REG_OFFSET", kGensMaverickOnly, "PROJ-CONV-E3", WaitKind::Semaphore, Comparator::Eq, ModeOperand::RegisterOffset},
    {0x92, "SEM_LT_REG_OFFSET", kGensMaverickOnly, "PROJ-CONV-E3", WaitKind::Semaphore, Comparator::Lt, ModeOperand::RegisterOffset},
    {0x93, "SEM_LE_REG_OFFSET", kGensMaverickOnly, "PROJ-CONV-E3", WaitKind::Semaphore, Comparator::Le, ModeOperand::RegisterOffset},
    {0x94, "SEM_GT_REG_OFFSET", kGensMaverickOnly, "PROJ-CONV-E3", WaitKind::Semaphore, Comparator::Gt, ModeOperand::RegisterOffset},
    {0x95, "SEM_GE_REG_OFFSET", kGensMaverickOnly, "PROJ-CONV-E3", WaitKind::Semaphore, Comparator::Ge, ModeOperand::RegisterOffset},
    {0xFE, "UNORDERED", kGensAll, "", WaitKind::Unordered},
}};

/// UPDATE_MODE (enums.md §10). PROJ-CONV-E4: 0x85, 0x89 and 0x95 are members; INC/DEC have no register forms.
inline constexpr std::array<UpdateModeInfo, 21> kUpdateModeTable{{
    {0x00, "NONE", kGensAll, "", UpdateAction::None},
    {0x01, "EVT_SET_READ", kGensNotMaverick, "", UpdateAction::EventSet},
    {0x02, "EVT_CLR_READ", kGensNotMaverick, "", UpdateAction::EventClear},
    {0x03, "SEM_INC_READ", kGensAll, "", UpdateAction::Increment},
    {0x04, "SEM_DEC_READ", kGensAll, "", UpdateAction::Decrement},
    {0x05, "SEM_ADD_IMM_READ", kGensAll, "", UpdateAction::Add, ModeOperand::Immediate},
    {0x07, "SEM_SUB_IMM_READ", kGensAll, "", UpdateAction::Subtract, ModeOperand::Immediate},
    {0x09, "SEM_WR_IMM_READ", kGensAll, "", UpdateAction::Write, ModeOperand::Immediate},
    {0x11, "EVT_SET_COMPLETE", kGensNotMaverick, "", UpdateAction::EventSet, ModeOperand::None, true},
    {0x12, "EVT_CLR_COMPLETE", kGensNotMaverick, "", UpdateAction::EventClear, ModeOperand::None, true},
    {0x13, "SEM_INC_COMPLETE", kGensAll, "", UpdateAction::Increment, ModeOperand::None, true},
    {0x14, "SEM_DEC_COMPLETE", kGensAll, "", UpdateAction::Decrement, ModeOperand::None, true},
    {0x15, "SEM_ADD_IMM_COMPLETE", kGensAll, "", UpdateAction::Add, ModeOperand::Immediate, true},
    {0x17, "SEM_SUB_IMM_COMPLETE", kGensAll, "", UpdateAction::Subtract, ModeOperand::Immediate, true},
    {0x19, "SEM_WR_IMM_COMPLETE", kGensAll, "", UpdateAction::Write, ModeOperand::Immediate, true},
    {0x85, "SEM_ADD_REG_READ", kGensAll, "PROJ-CONV-E4", UpdateAction::Add, ModeOperand::Register},
    {0x87, "SEM_SUB_REG_READ", kGensAll, "", UpdateAction::Subtract, ModeOperand::Register},
    {0x89, "SEM_WR_REG_READ", kGensAll, "PROJ-CONV-E4", UpdateAction::Write, ModeOperand::Register},
    {0x95, "SEM_ADD_REG_COMPLETE", kGensAll, "PROJ-CONV-E4", UpdateAction::Add, ModeOperand::Register, true},
    {0x97, "SEM_SUB_REG_COMPLETE", kGensAll, "", UpdateAction::Subtract, ModeOperand::Register, true},
    {0x99, "SEM_WR_REG_COMPLETE", kGensAll, "", UpdateAction::Write, ModeOperand::Register, true},
}};
// clang-format on

/// The symbol of a semaphore comparison, as the EVENTS notation and the machine's wait reports write it.
struct ComparatorInfo {
  Comparator comparator;
  std::string_view symbol;
};
inline constexpr std::array<ComparatorInfo, 5> kComparators{{{Comparator::Eq, "=="},
                                                             {Comparator::Lt, "<"},
                                                             {Comparator::Le, "<="},
                                                             {Comparator::Gt, ">"},
                                                             {Comparator::Ge, ">="}}};
/// `a <op> b`; false for Comparator::None.
constexpr bool comparison_holds(Comparator c, uint32_t a, uint32_t b) {
  switch (c) {
    case Comparator::Eq: return a == b;
    case Comparator::Lt: return a < b;
    case Comparator::Le: return a <= b;
    case Comparator::Gt: return a > b;
    case Comparator::Ge: return a >= b;
    case Comparator::None: break;
  }
  return false;
}
/// An event wait waits for the event to be set (else for it to be clear).
constexpr bool waits_for_set(EventWait e) {
  return e == EventWait::Set || e == EventWait::SetThenClear;
}
/// An event wait that then changes the event (SetThenClear, ClearThenSet).
constexpr bool changes_event(EventWait e) {
  return e == EventWait::SetThenClear || e == EventWait::ClearThenSet;
}
/// The update acts on an event (else on a semaphore).
constexpr bool updates_event(UpdateAction a) {
  return a == UpdateAction::EventSet || a == UpdateAction::EventClear;
}
/// The update takes an operand (the EVENTS value or a register).
constexpr bool takes_operand(UpdateAction a) {
  return a == UpdateAction::Add || a == UpdateAction::Subtract || a == UpdateAction::Write;
}

namespace detail {
template <class Row, size_t N>
constexpr std::array<EnumValue, N> enum_values(const std::array<Row, N>& rows) {
  std::array<EnumValue, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = {rows[i].value, rows[i].name, rows[i].gens, rows[i].convention};
  return out;
}
}  // namespace detail

/// WAIT_MODE and UPDATE_MODE as plain enums (names, generations), derived from the tables above.
inline constexpr std::array<EnumValue, 21> kWaitModes = detail::enum_values(kWaitModeTable);
inline constexpr std::array<EnumValue, 21> kUpdateModes = detail::enum_values(kUpdateModeTable);

/// DATA_SRC (enums.md §7).
inline constexpr std::array<EnumValue, 2> kDataSrc{{{0, "REGISTER", kGensAll, ""}, {1, "IMMEDIATE", kGensAll, ""}}};
/// IMM_SRC (enums.md §7): used by S2_BN imm0_src.
inline constexpr std::array<EnumValue, 3> kImmSrc{{{0, "INSTRUCTION_IMMEDIATE", kGensAll, ""},
                                                   {1, "POINTER_IMMEDIATE", kGensAll, ""},
                                                   {2, "REG_PTR_IMMEDIATE", kGensAll, ""}}};
/// The IMM_SRC values by name.
namespace imm_src {
inline constexpr uint8_t kInstruction = 0, kPointer = 1, kRegPointer = 2;
}
/// ACCUM_CMD (enums.md §11, common.h:870): what an accumulating instruction does with the accumulator registers.
inline constexpr std::array<EnumValue, 5> kAccumCmd{{{0, "IDLE", kGensAll, ""},
                                                     {1, "ZERO", kGensAll, ""},
                                                     {2, "ACCUMULATE", kGensAll, ""},
                                                     {3, "ZERO_ACCUMULATE", kGensAll, ""},
                                                     {4, "LOAD_ACCUMULATE", kGensAll, ""}}};
/// The ACCUM_CMD values by name.
namespace accum_cmd {
inline constexpr uint8_t kIdle = 0, kZero = 1, kAccumulate = 2, kZeroAccumulate = 3, kLoadAccumulate = 4;
}
/// IMM_SRC_N (enums.md §7): the differently numbered twin; never convert between the two by value.
inline constexpr std::array<EnumValue, 3> kImmSrcN{
    {{0, "Pointer", kGensAll, ""}, {1, "Instruction", kGensAll, ""}, {2, "RegPtr", kGensAll, ""}}};
/// TENSOR_SUBDIM (enums.md §6).
inline constexpr std::array<EnumValue, 5> kTensorSubdim{{{0, "UNUSED", kGensAll, ""},
                                                         {2, "X", kGensAll, ""},
                                                         {3, "XY", kGensAll, ""},
                                                         {4, "XYZ", kGensAll, ""},
                                                         {5, "XYZW", kGensAll, ""}}};
/// TENS_SCALAR_REV_OPS (enums.md §8).
inline constexpr std::array<EnumValue, 4> kRevOps{
    {{0, "NONE", kGensAll, ""}, {1, "FIRST", kGensAll, ""}, {2, "SECOND", kGensAll, ""}, {3, "BOTH", kGensAll, ""}}};
/// DEBUG_CMD_LEVELS (common-formats.md §2; runtime-side, informative).
inline constexpr std::array<EnumValue, 6> kDebugCmdLevels{{{0, "NONE", kGensAll, ""},
                                                           {1, "NOTIFY", kGensAll, ""},
                                                           {3, "START", kGensAll, ""},
                                                           {5, "END", kGensAll, ""},
                                                           {7, "START_END", kGensAll, ""},
                                                           {9, "INS_FIELD", kGensAll, ""}}};

namespace detail {
inline void opcode_name_is_not_in_the_catalog() {}  // not constexpr: naming a missing opcode does not compile
/// The catalog value of the opcode the header names NEURON_ISA_TPB_OPCODE_<enum_name>, at compile time.
consteval uint8_t opcode_named(std::string_view enum_name) {
  for (const OpcodeInfo& row : kOpcodes)
    if (row.enum_name == enum_name) return row.value;
  opcode_name_is_not_in_the_catalog();
  return 0;
}
}  // namespace detail

// The opcodes the validators and executors name, each read from its catalog row by the header's name (so no value
// is written twice; tests/unit/catalog_lint_test.cpp keeps opcode literals out of the other sources).
namespace opcode {
inline constexpr uint8_t kTensorLoad = detail::opcode_named("TENSOR_LOAD");
inline constexpr uint8_t kTensorStore = detail::opcode_named("TENSOR_STORE");
inline constexpr uint8_t kPseudoTensorStore = detail::opcode_named("PSEUDO_TENSOR_STORE");
inline constexpr uint8_t kPseudoTensorLoad = detail::opcode_named("PSEUDO_TENSOR_LOAD");
inline constexpr uint8_t kImmLdArith = detail::opcode_named("TENSOR_SCALAR_IMM_LD_ARITH");
inline constexpr uint8_t kImmLdBitvec = detail::opcode_named("TENSOR_SCALAR_IMM_LD_BITVEC");
inline constexpr uint8_t kBatchNormParamLoad = detail::opcode_named("BATCH_NORM_PARAM_LOAD");
inline constexpr uint8_t kMatchValueLoad = detail::opcode_named("MATCH_VALUE_LOAD");
inline constexpr uint8_t kPtrMultiArith = detail::opcode_named("TENSOR_SCALAR_PTR_MULTI_ARITH");
inline constexpr uint8_t kPtrMultiBitvec = detail::opcode_named("TENSOR_SCALAR_PTR_MULTI_BITVEC");
inline constexpr uint8_t kPtrMultiDualArith = detail::opcode_named("TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH");
inline constexpr uint8_t kPtrMultiDualBitvec = detail::opcode_named("TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC");
inline constexpr uint8_t kActivationTableLoad = detail::opcode_named("ACTIVATION_TABLE_LOAD");
inline constexpr uint8_t kHalt = detail::opcode_named("HALT");
inline constexpr uint8_t kDrain = detail::opcode_named("DRAIN");
inline constexpr uint8_t kInstructionFlush = detail::opcode_named("INSTRUCTION_FLUSH");
inline constexpr uint8_t kNop = detail::opcode_named("NOP");
inline constexpr uint8_t kNotify = detail::opcode_named("NOTIFY");
inline constexpr uint8_t kLdWeights = detail::opcode_named("LDWEIGHTS");
inline constexpr uint8_t kMatmul = detail::opcode_named("MATMUL");
inline constexpr uint8_t kInvalid = detail::opcode_named("INVALID");
// Synchronisation and DMA family:
inline constexpr uint8_t kEventSemaphore = detail::opcode_named("EVENT_SEMAPHORE");
inline constexpr uint8_t kSetOrderingMode = detail::opcode_named("SET_ORDERING_MODE");
inline constexpr uint8_t kPseudoBranchLabel = detail::opcode_named("PSEUDO_BRANCH_LABEL");
inline constexpr uint8_t kPseudoDmaDirect2d = detail::opcode_named("PSEUDO_DMA_DIRECT2D");
// Datapath family (real-programs.md §10-§12).
inline constexpr uint8_t kTensorTensorArith = detail::opcode_named("TENSOR_TENSOR_ARITH_OP");
inline constexpr uint8_t kCopy = detail::opcode_named("COPY");
inline constexpr uint8_t kCast = detail::opcode_named("CAST");
inline constexpr uint8_t kMemset = detail::opcode_named("MEMSET");
// Sequencer control block (sequencer.md §1, §8).
inline constexpr uint8_t kWrite = detail::opcode_named("WRITE");
inline constexpr uint8_t kMove = detail::opcode_named("MOVE");
inline constexpr uint8_t kAluOp = detail::opcode_named("ALU_OP");
inline constexpr uint8_t kCompareBranch = detail::opcode_named("COMPARE_BRANCH");
inline constexpr uint8_t kEventSemaphoreRangeClear = detail::opcode_named("EVENT_SEMAPHORE_RANGE_CLEAR");
inline constexpr uint8_t kPollSem = detail::opcode_named("POLL_SEM");
inline constexpr uint8_t kBranchPrefetchHint = detail::opcode_named("BRANCH_PREFETCH_HINT");
inline constexpr uint8_t kPseudoFunctionBegin = detail::opcode_named("PSEUDO_FUNCTION_BEGIN");
inline constexpr uint8_t kPseudoFunctionReturn = detail::opcode_named("PSEUDO_FUNCTION_RETURN");
inline constexpr uint8_t kPseudoFunctionCall = detail::opcode_named("PSEUDO_FUNCTION_CALL");
inline constexpr uint8_t kPseudoBranchPrefetchHint = detail::opcode_named("PSEUDO_BRANCH_PREFETCH_HINT");
inline constexpr uint8_t kPseudoInst = detail::opcode_named("PSEUDO_INST");
}  // namespace opcode

namespace dtype {
inline constexpr uint8_t kInvalid = 0x00, kUint64 = 0x01, kInt8 = 0x02, kUint8 = 0x03, kInt16 = 0x04, kUint16 = 0x05,
                         kBfloat16 = 0x06, kFp16 = 0x07, kInt32 = 0x08, kUint32 = 0x09, kFp32 = 0x0A, kFp32r = 0x0B,
                         kInt64 = 0x0C, kFp8Exp3 = 0x0D, kFp8Exp4 = 0x0E, kFp8Exp5 = 0x0F, kFp4Exp2 = 0x10,
                         kFp8Exp2 = 0x11, kInt4 = 0x12, kSfp8E8 = 0x13, kSfp8E7 = 0x14, kSfp8E6 = 0x15, kSfp8E5 = 0x16;
}  // namespace dtype

namespace aluop {
inline constexpr uint8_t kBypass = 0x00, kBitwiseNot = 0x01, kArithShiftLeft = 0x02, kArithShiftRight = 0x03,
                         kAdd = 0x04, kSubtract = 0x05, kMult = 0x06, kDivide = 0x07, kMax = 0x08, kMin = 0x09,
                         kBitwiseAnd = 0x0A, kBitwiseOr = 0x0B, kBitwiseXor = 0x0C, kLogicalAnd = 0x0D,
                         kLogicalOr = 0x0E, kLogicalXor = 0x0F, kLogicalShiftLeft = 0x10, kLogicalShiftRight = 0x11,
                         kIsEq = 0x12, kIsGt = 0x13, kIsGe = 0x14, kIsLe = 0x15, kIsLt = 0x16, kAbsoluteDiff = 0x17,
                         kIsNe = 0x18, kAbsoluteValue = 0x19, kPow = 0x1A, kMod = 0x1B, kCrc32 = 0x1C, kRsqrt = 0x1D,
                         kAbsMax = 0x20, kAbsMin = 0x21, kReLu = 0x22, kSquare = 0x23, kSymmetricClamp = 0x24;
}  // namespace aluop

// ---- Look-ups (constexpr, allocation-free, O(1): 256-entry indexes built from the tables) ----

namespace detail {
inline constexpr uint8_t kNoRow = 0xFF;
template <class Row, size_t N, class Key>
constexpr std::array<uint8_t, 256> make_index(const std::array<Row, N>& rows, Key key) {
  static_assert(N < kNoRow);
  std::array<uint8_t, 256> index{};
  index.fill(kNoRow);
  for (size_t i = 0; i < N; ++i) index[key(rows[i])] = static_cast<uint8_t>(i);
  return index;
}
/// The row of `rows` that index[value] points to, or nullptr.
template <class Row, size_t N>
constexpr const Row* row_of(const std::array<Row, N>& rows, const std::array<uint8_t, 256>& index, uint8_t value) {
  const uint8_t i = index[value];
  return i == kNoRow ? nullptr : &rows[i];
}
inline constexpr auto kOpcodeIndex = make_index(kOpcodes, [](const OpcodeInfo& r) { return r.value; });
inline constexpr auto kDtypeIndex = make_index(kDtypes, [](const DtypeInfo& r) { return r.code; });
inline constexpr auto kAluOpIndex = make_index(kAluOps, [](const AluOpInfo& r) { return r.code; });
}  // namespace detail

/// The catalog row of an opcode value, whatever the generation; nullptr when no generation has it.
constexpr const OpcodeInfo* find_opcode(uint8_t value) {
  return detail::row_of(kOpcodes, detail::kOpcodeIndex, value);
}
/// INVALID (0xFF): the header enum's invalid-opcode marker, which no instruction carries. Decode keeps its word raw
/// and says so, validation rejects it (PROJ-CONV-C11), coverage counts it apart (PROJ-CONV-C20).
inline constexpr uint8_t kInvalidOpcode = 0xFF;
constexpr bool is_invalid_marker(const OpcodeInfo* row) {
  return row != nullptr && row->value == kInvalidOpcode;
}
/// Why the operand bytes of a word of `row` stay raw (decode, disassembly, the assembler): "invalid-opcode marker"
/// for INVALID, "layout not public" where the row's `layout_not_public` says so, else "operands not modeled".
constexpr std::string_view raw_operands_note(const OpcodeInfo* row) {
  if (is_invalid_marker(row)) return "invalid-opcode marker";
  return row != nullptr && !row->layout_not_public.empty() ? "layout not public" : "operands not modeled";
}
namespace detail {
constexpr std::array<uint8_t, 256> make_opcode_gens() {
  std::array<uint8_t, 256> masks{};
  for (const auto& r : kOpcodes) masks[r.value] = r.gens.bits;
  return masks;
}
inline constexpr auto kOpcodeGens = make_opcode_gens();
}  // namespace detail

/// Is `value` a member of generation g's OPCODE enum?
constexpr bool opcode_in(uint8_t value, Generation g) {
  return GenSet{detail::kOpcodeGens[value]}.has(g);
}
constexpr const DtypeInfo* find_dtype(uint8_t code) {
  return detail::row_of(kDtypes, detail::kDtypeIndex, code);
}
namespace detail {
constexpr std::array<uint8_t, 256> make_dtype_gens() {
  std::array<uint8_t, 256> masks{};
  for (const auto& r : kDtypes) masks[r.code] = r.gens.bits;
  return masks;
}
/// Addressing size per code (PROJ-CONV-C14): 0 without a size, 1 for sub-byte codes.
constexpr std::array<uint8_t, 256> make_dtype_sizes() {
  std::array<uint8_t, 256> sizes{};
  for (const auto& r : kDtypes) sizes[r.code] = static_cast<uint8_t>(r.bits == 0 ? 0 : r.bits < 8 ? 1 : r.bits / 8);
  return sizes;
}
inline constexpr auto kDtypeGens = make_dtype_gens();
inline constexpr auto kDtypeSizes = make_dtype_sizes();
}  // namespace detail

constexpr bool dtype_in(uint8_t code, Generation g) {
  return GenSet{detail::kDtypeGens[code]}.has(g);
}
constexpr const AluOpInfo* find_aluop(uint8_t code) {
  return detail::row_of(kAluOps, detail::kAluOpIndex, code);
}
constexpr bool aluop_in(uint8_t code, Generation g) {
  const AluOpInfo* row = find_aluop(code);
  return row != nullptr && row->gens.has(g);
}
/// Class membership of an ALU op on a generation (false when the op is not in that generation's enum).
constexpr bool aluop_is(uint8_t code, AluClass c, Generation g) {
  const AluOpInfo* row = find_aluop(code);
  return row != nullptr && row->gens.has(g) && row->is(c);
}
template <size_t N>
constexpr const EnumValue* find_enum(const std::array<EnumValue, N>& table, uint8_t value) {
  for (const auto& row : table)
    if (row.value == value) return &row;
  return nullptr;
}
template <size_t N>
constexpr bool enum_in(const std::array<EnumValue, N>& table, uint8_t value, Generation g) {
  const EnumValue* row = find_enum(table, value);
  return row != nullptr && row->gens.has(g);
}

namespace detail {
template <size_t N>
constexpr std::array<uint8_t, 256> make_gen_masks(const std::array<EnumValue, N>& rows) {
  std::array<uint8_t, 256> masks{};
  for (const auto& r : rows) masks[r.value] = r.gens.bits;
  return masks;
}
inline constexpr auto kWaitModeGens = make_gen_masks(kWaitModes);
inline constexpr auto kUpdateModeGens = make_gen_masks(kUpdateModes);
}  // namespace detail

constexpr bool wait_mode_in(uint8_t value, Generation g) {
  return GenSet{detail::kWaitModeGens[value]}.has(g);
}
constexpr bool update_mode_in(uint8_t value, Generation g) {
  return GenSet{detail::kUpdateModeGens[value]}.has(g);
}

namespace detail {
inline constexpr auto kWaitModeIndex = make_index(kWaitModeTable, [](const WaitModeInfo& r) { return r.value; });
inline constexpr auto kUpdateModeIndex = make_index(kUpdateModeTable, [](const UpdateModeInfo& r) { return r.value; });
}  // namespace detail

/// What a WAIT_MODE value waits for, whatever the generation; nullptr for a value no generation has.
constexpr const WaitModeInfo* wait_mode_info(uint8_t value) {
  return detail::row_of(kWaitModeTable, detail::kWaitModeIndex, value);
}
/// What an UPDATE_MODE value does, whatever the generation; nullptr for a value no generation has.
constexpr const UpdateModeInfo* update_mode_info(uint8_t value) {
  return detail::row_of(kUpdateModeTable, detail::kUpdateModeIndex, value);
}
/// The WAIT_MODE value of a semaphore wait, or of an event wait (comparator and operand None).
constexpr std::optional<uint8_t> wait_mode_for(WaitKind kind, Comparator c, ModeOperand operand,
                                               EventWait event = EventWait::None) {
  for (const WaitModeInfo& r : kWaitModeTable)
    if (r.kind == kind && r.comparator == c && r.operand == operand && r.event == event) return r.value;
  return std::nullopt;
}
/// The UPDATE_MODE value of an action with its operand form, at read or at completion.
constexpr std::optional<uint8_t> update_mode_for(UpdateAction action, ModeOperand operand, bool at_completion) {
  for (const UpdateModeInfo& r : kUpdateModeTable)
    if (r.action == action && r.operand == operand && r.at_completion == at_completion) return r.value;
  return std::nullopt;
}
/// A wait mode that never holds the word back (NONE, UNORDERED).
constexpr bool wait_never_blocks(uint8_t value) {
  const WaitModeInfo* m = wait_mode_info(value);
  return m != nullptr && !m->may_block();
}
/// A wait mode that waits on a semaphore (the SEM_*_IMM, _REG and _REG_OFFSET forms).
constexpr bool waits_on_semaphore(uint8_t value) {
  const WaitModeInfo* m = wait_mode_info(value);
  return m != nullptr && m->kind == WaitKind::Semaphore;
}
/// An update mode with no action (NONE).
constexpr bool update_is_none(uint8_t value) {
  const UpdateModeInfo* m = update_mode_info(value);
  return m != nullptr && m->action == UpdateAction::None;
}

/// The engines of a placement, as a set (bit e = Engine e), with the words a failure uses for it.
struct EnginePlacement {
  uint8_t engines;
  std::string_view allowed;  ///< "ACT, DVE or POOL"
  constexpr bool has(Engine e) const { return (engines >> static_cast<unsigned>(e) & 1U) != 0; }
};
constexpr EnginePlacement engine_placement(Placement p) {
  constexpr auto bit = [](Engine e) { return static_cast<uint8_t>(1U << static_cast<unsigned>(e)); };
  switch (p) {
    case Placement::Pe: return {bit(Engine::Pe), "PE"};
    case Placement::Datapath:
      return {static_cast<uint8_t>(bit(Engine::Act) | bit(Engine::Dve) | bit(Engine::Pool)), "ACT, DVE or POOL"};
    case Placement::Dve: return {bit(Engine::Dve), "DVE"};
    case Placement::DvePool: return {static_cast<uint8_t>(bit(Engine::Dve) | bit(Engine::Pool)), "DVE or POOL"};
    case Placement::DvePoolAct:
      return {static_cast<uint8_t>(bit(Engine::Dve) | bit(Engine::Pool) | bit(Engine::Act)), "DVE, POOL or ACT"};
    case Placement::Act: return {bit(Engine::Act), "ACT"};
    case Placement::Pool: return {bit(Engine::Pool), "POOL"};
    case Placement::Any: break;
  }
  return {
      static_cast<uint8_t>(bit(Engine::Pe) | bit(Engine::Act) | bit(Engine::Pool) | bit(Engine::Dve) | bit(Engine::Sp)),
      "any engine"};
}
/// The engines an opcode may be issued from (its row's placement column; any engine for a value with no row).
constexpr EnginePlacement placement_of(uint8_t opcode) {
  const OpcodeInfo* row = find_opcode(opcode);
  return engine_placement(row != nullptr ? row->placement : Placement::Any);
}
/// The placement on generation `g`: the column, except that on MAVERICK the ACT-only rows (the activation family,
/// whose tables live in the DVE block there) may also be issued from DVE (PROJ-CONV-A17). Every placement check —
/// the validators' engine_placement, the executors' WrongEngine, engine_may_issue — reads this one rule.
constexpr EnginePlacement placement_of(uint8_t opcode, Generation g) {
  const OpcodeInfo* row = find_opcode(opcode);
  if (row != nullptr && row->placement == Placement::Act && g == Generation::Maverick)
    return {static_cast<uint8_t>(engine_placement(Placement::Act).engines | engine_placement(Placement::Dve).engines),
            "ACT or DVE"};
  return placement_of(opcode);
}
/// The opcode is a pseudo instruction (its row's band column; false for a value with no row).
constexpr bool is_pseudo(uint8_t opcode) {
  const OpcodeInfo* row = find_opcode(opcode);
  return row != nullptr && row->pseudo();
}

/// Element size in bytes used for addressing and alignment (common-formats.md §10.4, PROJ-CONV-C14):
/// 0 for codes without a size (INVALID, unassigned codes); 1 for sub-byte codes (FP4, INT4, CPTC).
constexpr unsigned dtype_size(uint8_t code) {
  return detail::kDtypeSizes[code];
}
/// True for dtypes stored in fewer than 8 bits: they have no element address (PROJ-CONV-C14).
constexpr bool dtype_is_sub_byte(uint8_t code) {
  const DtypeInfo* row = find_dtype(code);
  return row != nullptr && row->bits > 0 && row->bits < 8;
}

/// "PE", "ACT", "POOL", "DVE", "SP".
std::string_view to_string(Engine e);
/// "PE", "ACT", "DVE", "POOL", "NX", "NX/DMA", "POOL/DVE", "DVE/POOL", "RT", "-" (as `tpbisa catalog` prints them).
std::string_view to_string(Affinity a);
std::string_view to_string(Maint m);
/// "sentinel", "unsigned int", "signed int", "float", "scale", "coded" (as `tpbisa catalog` prints them).
std::string_view to_string(DtypeKind k);
/// The ALU op's classes by their ISA predicate names (enums.md §5.1): "bitvec", "arith", ..., "PROJ-CONV-T11".
std::vector<std::string_view> alu_class_names(const AluOpInfo& op);
/// The ISA struct name of a modeled format (MEM_2D, S2_BN, ...), "not-modeled"; derived from the family registry.
std::string_view to_string(Format f);
/// Case-insensitive look-up of a dtype by catalog name (UINT32) or short name (u32).
std::optional<uint8_t> parse_dtype(std::string_view text);
/// The catalog dtype whose elements a NEFF signature dtype holds ("float16" -> FP16, "float8_e4m3fn" -> FP8_EXP4;
/// the dtypes' signature column); nullptr for a signature dtype no catalog dtype means (float64, bool, the
/// IEEE-like float8_e4m3).
const DtypeInfo* signature_dtype(std::string_view signature);
/// "==", "<", "<=", ">", ">=" ("" for None).
std::string_view to_string(Comparator c);

}  // namespace tpbisa
