import SCLMCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct ChildPipesTests {
    @Test func everyEndIsCloseOnExecAtOrAboveTheLowestAndCarriesBytes() throws {
        let pipes = try ChildPipes.make(3, lowest: 10)
        defer { for ends in pipes { close(ends.read); close(ends.write) } }
        #expect(pipes.count == 3)
        for ends in pipes {
            for fd in [ends.read, ends.write] {
                #expect(fd >= 10)
                #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            }
            var byte: UInt8 = 42
            #expect(write(ends.write, &byte, 1) == 1)
            byte = 0
            #expect(read(ends.read, &byte, 1) == 1 && byte == 42)
        }
        #expect(Set(pipes.flatMap { [$0.read, $0.write] }).count == 6)
    }
}
