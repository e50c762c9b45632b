// The family registry: one line per family. Every "per format" table is derived from this list and the
// catalog's format column (include/tpbisa/formats.hpp, src/families/registry.cpp).
#pragma once

#include "ctrl_no/format.hpp"
#include "datapath/format.hpp"
#include "mem2d/format.hpp"
#include "s2bn/format.hpp"
#include "s4d4_tsm/format.hpp"

namespace tpbisa {

using Families =
    TypeList<family::Mem2dFamily, family::S2BnFamily, family::TsmFamily, family::CtrlNoFamily, family::DatapathFamily>;

}  // namespace tpbisa
