/// How a transport picks its proxy.
///
/// libcurl reads `https_proxy`/`HTTPS_PROXY`, `http_proxy` (lowercase only) and `no_proxy` by itself
/// (``environment``); an explicit choice replaces all of them: ``direct`` uses none, ``server(_:)`` one
/// proxy whatever the variables say.
package enum ProxyChoice: Sendable, Equatable {
    /// What libcurl reads from the proxy environment variables.
    case environment
    /// No proxy at all, whatever the variables say.
    case direct
    /// This proxy, with `no_proxy` taken only from it.
    case server(ProxyServer)
}

/// One proxy: its URL, its credentials and the hosts reached without it.
package struct ProxyServer: Sendable, Equatable {
    /// `http://host:port` or `https://host:port` (an https proxy is verified against the transport's CA bundle).
    package var url: String
    /// `user:password`, sent as libcurl's `CURLOPT_PROXYUSERPWD`; never logged.
    package var credentials: String?
    /// Hosts reached directly (libcurl's `no_proxy` syntax); empty: every host goes through the proxy.
    package var noProxy: String

    /// Creates a proxy setting.
    package init(url: String, credentials: String? = nil, noProxy: String = "") {
        self.url = url
        self.credentials = credentials
        self.noProxy = noProxy
    }
}
