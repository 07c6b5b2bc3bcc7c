# The .NET agent (agents/dotnet): reads a .NET core with ClrMD and writes an
# .lfs; leakfind runs it with `dotnet` for a .NET core (cmd/cli/dotnet_core.c).
#   build/dotnet/leakfind-dotnet.dll   and what it needs beside it
# Built only where the .NET SDK is (`dotnet` on PATH), as the OCaml agents
# only where their compilers are; skipped quietly elsewhere. Its packages
# (Microsoft.Diagnostics.Runtime, System.IO.Hashing) come from NuGet.
DOTNET := $(shell command -v dotnet 2>/dev/null)
DOTNET_AGENT_SRC := $(wildcard agents/dotnet/*.cs) agents/dotnet/LeakfindDotnet.csproj

ifneq ($(DOTNET),)
all: $(BUILD)/dotnet/leakfind-dotnet.dll

$(BUILD)/dotnet/leakfind-dotnet.dll: $(DOTNET_AGENT_SRC)
	@mkdir -p $(BUILD)/dotnet
	DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 $(DOTNET) build agents/dotnet -nologo -v q -c Release \
	  -o $(BUILD)/dotnet >$(BUILD)/dotnet/build.log 2>&1 || { cat $(BUILD)/dotnet/build.log; exit 1; }
	@touch $@
endif

# the tests read cores through it (tests/dotnet/core.sh); the sanitized
# pass reads the committed .lfs and leaves the live cores to the plain one
ifneq ($(DOTNET),)
ifneq ($(LEAKFIND_SANITIZED),1)
TEST_TOOLS += $(BUILD)/dotnet/leakfind-dotnet.dll
endif
endif
