// The family registry: one line per family. Every "per format" table is derived from this list and the
// catalog's format column (include/tpbisa/formats.hpp, src/families/registry.cpp).
#pragma once

#include "act/format.hpp"
#include "bnsearch/format.hpp"
#include "cci/format.hpp"
#include "convlut/format.hpp"
#include "ctrl_no/format.hpp"
#include "datapath/format.hpp"
#include "dequant/format.hpp"
#include "dma/format.hpp"
#include "index/format.hpp"
#include "lanes/format.hpp"
#include "matmul/format.hpp"
#include "mem2d/format.hpp"
#include "peseed/format.hpp"
#include "pool/format.hpp"
#include "predicated/format.hpp"
#include "publayout/format.hpp"
#include "readidx/format.hpp"
#include "reduce/format.hpp"
#include "rng/format.hpp"
#include "s2bn/format.hpp"
#include "s4d4_tsm/format.hpp"
#include "sc/format.hpp"
#include "seq/format.hpp"
#include "sparse/format.hpp"
#include "stt/format.hpp"
#include "sync/format.hpp"
#include "tensor_scalar/format.hpp"
#include "testsem/format.hpp"

namespace tpbisa {

/// The end of the list below, so that every family's line ends with a comma and adding one touches no other line.
struct EndOfFamilies {};

// clang-format off
using FamilyLines = TypeList<
    family::Mem2dFamily,  // TensorLoad/TensorStore and their pseudo forms
    family::S2BnFamily,  // ImmLd, BatchNormParamLoad, MatchValueLoad
    family::TsmFamily,  // TensorScalarPtrMulti
    family::CtrlNoFamily,  // Nop, Halt, Drain, InstructionFlush, Notify, ActivationTableLoad
    family::MatmulFamily,  // LdWeights, Matmul
    family::SeqFamily,  // sequencer control block
    family::SyncFamily,  // EventSemaphore, SetOrderingMode, PseudoBranchLabel, PseudoDmaDirect2d
    family::DatapathFamily,  // Copy, Cast, TensorTensorArithOp, Memset
    family::SttFamily,  // ScalarTensorTensor, TensorTensorScan, SelectReduce, TensorScalarSelect
    family::LanesFamily,  // LoadMaskSelect, StreamShuffle, StreamTranspose
    family::PredicatedFamily,  // TensorTensorBitvecOp, CopyPredicated, CastPredicated
    family::ReduceFamily,  // TensorReduce, TransposeTensorReduce, TensorCumulative, Reciprocal
    family::TensorScalarFamily,  // TensorScalar, TensorScalarPtr, TransposeTensorScalar, cache forms, Exponential, DveReadAccumulator
    family::BnSearchFamily,  // BatchNormStats/Stats2/Aggregate, Max8, FindIndex8, MatchReplace8
    family::IndexFamily,  // Iota, TensorScalarAffineSelect, RangeSelect, GetSequenceBounds, NonzeroWithCount
    family::PoolFamily,   // Gather, IndirectCopy, Sort, Pool, CrossLaneReduceArith/Bitvec
    family::ActFamily,  // Activate, ActivateQuantize, ActivationReadAccumulator, Activate2, the table loads
    family::DmaFamily,  // DmaMemcpy, DmaIndirect, DmaTranspose, DmaGatherTranspose, PseudoDmaTrigger, PseudoTriggerCollective
    family::RngFamily,  // Dropout
    family::SparseFamily,  // MatmulSparse
    family::ReadIndicesFamily,  // DveReadIndices
    family::PublicLayoutFamily,  // CopyPredicatedScalar, Sb2sbCollective, RegStore, MaxPoolSelect
    family::DequantFamily,  // TensorDequantize
    family::SparsityCompressFamily,  // SparsityCompress, SparsityCompressTag
    family::ConvLutFamily,  // ConvLutLoad
    family::PeSeedFamily,  // PeManageSeed
    family::TestSemFamily,  // TestEventSem
    family::CompactControlFamily,  // CompactControlInst
    EndOfFamilies>;
// clang-format on

namespace detail {
template <class Kept, class... Rest>
struct FamiliesOf;
template <class... Kept>
struct FamiliesOf<TypeList<Kept...>, EndOfFamilies> {
  using type = TypeList<Kept...>;
};
template <class... Kept, class F, class... Rest>
struct FamiliesOf<TypeList<Kept...>, F, Rest...> {
  using type = typename FamiliesOf<TypeList<Kept..., F>, Rest...>::type;
};
template <class L>
struct FamiliesOfLines;
template <class... F>
struct FamiliesOfLines<TypeList<F...>> {
  using type = typename FamiliesOf<TypeList<>, F...>::type;
};
}  // namespace detail

/// The registered families, in registry order.
using Families = typename detail::FamiliesOfLines<FamilyLines>::type;

}  // namespace tpbisa
