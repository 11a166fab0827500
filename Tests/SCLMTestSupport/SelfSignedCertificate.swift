import Foundation
import SCLMCore

/// A throwaway self-signed certificate for `127.0.0.1` (EC P-256, one day), made with the `openssl` tool, for
/// loopback TLS fixtures (`http_fixture.py --tls`, `proxy_fixture.py --tls`).
package struct SelfSignedCertificate: Sendable {
    /// The PEM certificate; also the CA bundle that trusts it.
    package let certificatePath: String
    /// The PEM private key.
    package let keyPath: String

    /// Writes `cert.pem` and `key.pem` into `folder`.
    ///
    /// - Throws: `SCLMError` when `openssl` fails.
    package init(in folder: TemporaryDirectory) throws {
        certificatePath = folder.appending("cert.pem")
        keyPath = folder.appending("key.pem")
        let generated = try ProcessRunner.run(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", keyPath, "-out", certificatePath, "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        guard generated.status == 0 else { throw SCLMError(.internal, "openssl req failed: \(generated)") }
    }
}
