// Bounded, deterministic smoke run of the trace parser fuzz target: each
// seed file, then MUTATIONS mutants of each (byte flips, deletions,
// insertions of JSON/TI punctuation, truncations, line duplications) from a
// fixed-seed generator. Any crash or escaping exception fails the test.
//   trace_parser_fuzz_smoke MUTATIONS SEED_FILE...
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string mutate(std::string text, std::mt19937_64& rng)
{
  static const std::string tokens[] = {"{", "}", "\"", ":", ",", "[", "]", "\n", " ", "-1", "1e309", "null",
                                       "\"call\"", "\"rank\":", "99999999999", "0 ", "isend", "\xff"};
  int steps = 1 + static_cast<int>(rng() % 4);
  for (int s = 0; s < steps; ++s) {
    std::size_t pos = text.empty() ? 0 : rng() % text.size();
    switch (rng() % 5) {
      case 0:
        if (!text.empty())
          text[pos] = static_cast<char>(text[pos] ^ (1 << (rng() % 8)));
        break;
      case 1:
        text.erase(pos, 1 + rng() % 8);
        break;
      case 2:
        text.insert(pos, tokens[rng() % std::size(tokens)]);
        break;
      case 3:
        text.resize(pos);
        break;
      case 4: {
        auto start = text.rfind('\n', pos);
        start = start == std::string::npos ? 0 : start + 1;
        auto end = text.find('\n', pos);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
        text.insert(start, line);
        break;
      }
    }
  }
  return text;
}

}  // namespace

int main(int argc, char** argv)
{
  if (argc < 3) {
    std::cerr << "usage: trace_parser_fuzz_smoke MUTATIONS SEED_FILE...\n";
    return 2;
  }
  long mutations = std::atol(argv[1]);
  std::mt19937_64 rng(20261122);
  long inputs = 0;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string seed = buffer.str();
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(seed.data()), seed.size());
    for (long m = 0; m < mutations; ++m, ++inputs) {
      std::string input = mutate(seed, rng);
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    }
  }
  std::cout << inputs << " mutated inputs parsed or rejected cleanly\n";
  return 0;
}
