// The entry point of libgpudedup_parquet.so: the table of its functions.
#include "host/io/parquet/parquet_arrow_module.hpp"

extern "C" __attribute__((visibility("default"))) const gpudedup::io::ParquetModule* gpudedup_parquet_module() {
  static const gpudedup::io::ParquetModule module{gpudedup::io::kParquetModuleAbi, gpudedup::io::open_arrow_table,
                                                  gpudedup::io::write_arrow_kept};
  return &module;
}
