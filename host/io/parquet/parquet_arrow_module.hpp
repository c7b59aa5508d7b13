#pragma once
// The Arrow implementations inside the Parquet module (C++20, parquet_arrow_*.cpp).
#include "host/io/parquet/parquet_table.hpp"

namespace gpudedup::io {

std::unique_ptr<ParquetTable> open_arrow_table(const std::string& path, const ParquetColumns& columns);
void write_arrow_kept(const std::vector<ParquetKeptInput>& inputs, const std::vector<uint8_t>& keep,
                      std::ostream& out);

}  // namespace gpudedup::io

/// The module's one exported symbol, looked up by parquet_loader.cpp.
extern "C" const gpudedup::io::ParquetModule* gpudedup_parquet_module();
