import Foundation
import SCLMCommands
import SCLMCore
import SCLMTestSupport
import Testing

/// `make install DESTDIR=…` installs a working sclm with its manual page and completions. The suite builds
/// no release, so the test installs the debug binary it already has through `BIN=`.
@Suite(.tags(.large), .serialized) struct InstallTests {
    /// Runs `make install` into a fresh folder and returns it (removed when the value is released).
    static func install() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            [
                "make", "-s", "-C", ProcessRunner.packageRoot, "install", "BIN=\(ProcessRunner.sclmPath)",
                "DESTDIR=\(folder.path)",
            ],
            timeout: 120)
        try #require(result.status == 0, "\(result)")
        return folder
    }

    static func which(_ program: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + program }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    @Test func makeInstallPutsTheBinaryManPageAndCompletionsInPlace() throws {
        let folder = try Self.install()
        let root = folder.path + "/usr/local"
        let version = try ProcessRunner.run(root + "/bin/sclm", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("sclm "), "\(version)")

        let man = try #require(Self.which("man"), "man-db is not installed")
        let page = try ProcessRunner.run(
            man, ["-l", root + "/share/man/man1/sclm.1"], environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(page.status == 0, "\(page)")
        #expect(page.stdout.contains("sclm config set"), "\(page)")

        let bash = try ProcessRunner.run(
            "/bin/bash", ["-c", "source \(root)/share/bash-completion/completions/sclm; complete -p sclm"])
        #expect(bash.stdout.contains("complete -F _sclm sclm"), "\(bash)")
        let offered = try ProcessRunner.run(
            "/bin/bash",
            [
                "-c",
                "source \(root)/share/bash-completion/completions/sclm; COMP_WORDS=(sclm validate --format ''); COMP_CWORD=3; _sclm; echo \"${COMPREPLY[*]}\"",
            ])
        #expect(offered.stdout == "text json junit\n", "\(offered)")
        let value = try ProcessRunner.run(
            "/bin/bash",
            [
                "-c",
                "source \(root)/share/bash-completion/completions/sclm; COMP_WORDS=(sclm config set sync.contentPolicy ''); COMP_CWORD=4; _sclm; echo \"${COMPREPLY[*]}\"",
            ])
        #expect(value.stdout == "install refuse\n", "\(value)")
    }

    @Test(.enabled(if: which("zsh") != nil, "zsh is not installed: the zsh completion cannot be loaded"))
    func zshLoadsItsCompletion() throws {
        let folder = try Self.install()
        let root = folder.path + "/usr/local"
        let zsh = try #require(Self.which("zsh"))
        let result = try ProcessRunner.run(
            zsh,
            [
                "-f", "-c",
                "fpath=(\(root)/share/zsh/site-functions $fpath); autoload -U compinit; compinit -u -D; print -r -- ${_comps[sclm]}",
            ])
        #expect(result.stdout == "_sclm\n", "\(result)")
    }

    @Test(.enabled(if: which("fish") != nil, "fish is not installed: the fish completion cannot be loaded"))
    func fishLoadsItsCompletion() throws {
        let folder = try Self.install()
        let root = folder.path + "/usr/local"
        let fish = try #require(Self.which("fish"))
        let result = try ProcessRunner.run(
            fish,
            [
                "--no-config", "-c",
                "source \(root)/share/fish/vendor_completions.d/sclm.fish; complete -C'sclm validate --format '",
            ])
        #expect(result.stdout.contains("junit"), "\(result)")
    }

    @Test func theManPageNamesEveryCommandAndOption() async throws {
        let page = try await ProcessRunner.sclm(["manpage"])
        #expect(page.status == 0)
        let text = page.stdout.replacingOccurrences(of: "\\-", with: "-")
        let help = try await ProcessRunner.sclm(["--help"])
        #expect(help.status == 0)
        for path in await Self.commandPaths(["sclm"]) {
            #expect(text.contains(#".SS "\#(path.joined(separator: " "))""#), "\(path)")
            let usage = try await ProcessRunner.sclm(Array(path.dropFirst()) + ["--help"])
            for option in Self.options(inHelp: usage.stdout) { #expect(text.contains(option), "\(path) \(option)") }
        }
        for key in SettingsCatalog.all { #expect(text.contains(key.name), "\(key.name)") }
    }

    /// Every command path under `path`, read from the SUBCOMMANDS sections of `--help`.
    static func commandPaths(_ path: [String]) async -> [[String]] {
        guard let help = try? await ProcessRunner.sclm(Array(path.dropFirst()) + ["--help"]).stdout,
            let range = help.range(of: "SUBCOMMANDS:\n")
        else { return path.count > 1 ? [path] : [] }
        let names = help[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix {
            !$0.isEmpty
        }.compactMap { line -> String? in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }
        var paths = path.count > 1 ? [path] : []
        for name in names { paths += await commandPaths(path + [name]) }
        return paths
    }

    /// The `--long` option names in a help text's OPTIONS section.
    static func options(inHelp help: String) -> [String] {
        guard let range = help.range(of: "OPTIONS:\n") else { return [] }
        return help[range.upperBound...].split(separator: " ").map(String.init)
            .filter { $0.hasPrefix("--") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",.")) }
            .filter { $0.count > 2 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
    }
}
