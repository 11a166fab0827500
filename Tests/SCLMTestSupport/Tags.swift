import Testing

extension Tag {
    /// Pure logic, no I/O.
    @Tag public static var small: Self
    /// Real SQLite files, libarchive, loopback HTTP.
    @Tag public static var medium: Self
    /// The built `sclm` binary driven as a process.
    @Tag public static var large: Self
}

extension Tag {
    /// Drives a real Chromium (`sclm play`, `sclm validate --render`); `make test` installs it.
    @Tag public static var chromium: Self
}
