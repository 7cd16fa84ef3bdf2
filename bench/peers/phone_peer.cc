// libphonenumber's C++ library on a column of phone numbers: the peer of issue 27's `kind: phone`.
//
//     phone_peer INPUT.csv [OUTPUT.csv]
//
// INPUT is bench/phones.py's CSV: a header, then `id,phone` lines whose phone never holds a comma
// or a double quote, so a line splits at its first comma. For each phone, on one thread:
// PhoneNumberUtil::Parse(value, "US"), IsValidNumber, and for a valid number Format INTERNATIONAL
// and E164. Writes `phone,formatted,e164,status` lines (status complete, invalid or empty: no
// digits at all; a value Parse refuses is invalid) to OUTPUT, or to standard output without one.
// The values written are plain ASCII digits, spaces, '+', '-' and "ext.", so nothing is quoted.
// Standard error gets one line: the values and the time spent in the loop (after the metadata
// has loaded), in µs per value.
//
// Build (Debian: apt-get install libphonenumber-dev):
//     g++ -O2 -std=c++17 -o phone_peer bench/peers/phone_peer.cc -lphonenumber
// libphonenumber.so brings its own protobuf, ICU and Abseil dependencies.
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

bool has_digit(const std::string& s) {
  for (char c : s) {
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s INPUT.csv [OUTPUT.csv]\n", argv[0]);
    return 2;
  }
  FILE* in = std::fopen(argv[1], "rb");
  if (in == nullptr) {
    std::perror(argv[1]);
    return 2;
  }
  FILE* out = argc == 3 ? std::fopen(argv[2], "wb") : stdout;
  if (out == nullptr) {
    std::perror(argv[2]);
    return 2;
  }
  static char in_buffer[1 << 20], out_buffer[1 << 20];
  std::setvbuf(in, in_buffer, _IOFBF, sizeof in_buffer);
  std::setvbuf(out, out_buffer, _IOFBF, sizeof out_buffer);

  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();  // loads the metadata
  const std::string region = "US";

  char* line = nullptr;
  size_t capacity = 0;
  ssize_t length;
  long values = 0;
  bool header = true;
  std::string value, formatted, e164;
  PhoneNumber number;
  std::fputs("phone,formatted,e164,status\n", out);
  auto start = std::chrono::steady_clock::now();
  while ((length = getline(&line, &capacity, in)) != -1) {
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) --length;
    if (header) {
      header = false;
      continue;
    }
    const char* comma = static_cast<const char*>(std::memchr(line, ',', length));
    if (comma == nullptr) {
      std::fprintf(stderr, "line %ld has no comma\n", values + 2);
      return 2;
    }
    value.assign(comma + 1, line + length - (comma + 1));
    ++values;
    const char* status;
    formatted.clear();
    e164.clear();
    if (!has_digit(value)) {
      status = "empty";
    } else {
      number.Clear();
      if (util.Parse(value, region, &number) != PhoneNumberUtil::NO_PARSING_ERROR ||
          !util.IsValidNumber(number)) {
        status = "invalid";
      } else {
        status = "complete";
        util.Format(number, PhoneNumberUtil::INTERNATIONAL, &formatted);
        util.Format(number, PhoneNumberUtil::E164, &e164);
      }
    }
    std::fwrite(value.data(), 1, value.size(), out);
    std::fputc(',', out);
    std::fwrite(formatted.data(), 1, formatted.size(), out);
    std::fputc(',', out);
    std::fwrite(e164.data(), 1, e164.size(), out);
    std::fputc(',', out);
    std::fputs(status, out);
    std::fputc('\n', out);
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::free(line);
  if (std::ferror(in) || std::fflush(out) != 0 || std::ferror(out)) {
    std::perror("phone_peer");
    return 2;
  }
  std::fprintf(stderr, "phone_peer: %ld values, %.3f s in the loop, %.2f us per value\n", values,
               seconds, values ? seconds * 1e6 / values : 0.0);
  return 0;
}
