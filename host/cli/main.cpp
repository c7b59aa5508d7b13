#include <iostream>

#include "gpudedup/engine.hpp"

int main() {
  const auto s = gpudedup::cuda_status();
  std::cout << "gpudedup " << GPUDEDUP_VERSION << " cuda compiled=" << s.compiled << " " << s.reason << "\n";
  return 0;
}
