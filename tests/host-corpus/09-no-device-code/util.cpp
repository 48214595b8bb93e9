// 09-no-device-code: util.cpp - compiled by the host C++ compiler alone.
const char *util_name() { return "09-no-device-code"; }
