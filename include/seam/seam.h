// The public API of seam: build or parse a fusion, verify it, run it.
#pragma once

#include "ir/builder.h"
#include "ir/fusion.h"
#include "ir/verify.h"
