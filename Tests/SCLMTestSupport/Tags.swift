import Testing

extension Tag {
    /// Pure logic, no I/O.
    @Tag package static var small: Self
    /// Real SQLite files, libarchive, loopback HTTP.
    @Tag package static var medium: Self
    /// The built `sclm` binary driven as a process.
    @Tag package static var large: Self
}

extension Tag {
    /// Drives a real Chromium (`sclm play`, `sclm validate --render`); `make test` installs it.
    @Tag package static var chromium: Self
}
