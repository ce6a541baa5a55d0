/* Not upstream: see operations.hpp beside it. AES includes this header
 * but uses std::ifstream / std::ofstream only. */
#pragma once
#include <fstream>
#include "operations.hpp"
