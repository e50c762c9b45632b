// The family registry: one line per family. Every "per format" table is derived from this list and the
// catalog's format column (include/tpbisa/formats.hpp, src/families/registry.cpp).
#pragma once

#include "ctrl_no/format.hpp"
#include "datapath/format.hpp"
#include "index/format.hpp"
#include "matmul/format.hpp"
#include "mem2d/format.hpp"
#include "s2bn/format.hpp"
#include "s4d4_tsm/format.hpp"
#include "seq/format.hpp"
#include "sync/format.hpp"

namespace tpbisa {

using Families = TypeList<   // one line per family
    family::Mem2dFamily,     // TensorLoad/TensorStore and their pseudo forms
    family::S2BnFamily,      // ImmLd, BatchNormParamLoad, MatchValueLoad
    family::TsmFamily,       // TensorScalarPtrMulti
    family::CtrlNoFamily,    // Nop, Halt, Drain, InstructionFlush, Notify, ActivationTableLoad
    family::MatmulFamily,    // LdWeights, Matmul
    family::SeqFamily,       // sequencer control block
    family::SyncFamily,      // EventSemaphore, SetOrderingMode, PseudoBranchLabel, PseudoDmaDirect2d
    family::DatapathFamily,  // Copy, Cast, TensorTensorArithOp, Memset
    family::IndexFamily      // Iota, TensorScalarAffineSelect, RangeSelect, GetSequenceBounds, NonzeroWithCount
    >;

}  // namespace tpbisa
