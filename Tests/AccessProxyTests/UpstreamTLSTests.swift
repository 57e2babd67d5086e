import AccessBackendTesting
import AccessProxy
import Foundation
import Hummingbird
import HummingbirdTLS
import NIOSSL
import Testing

/// An https upstream (issue 52 item 1): the proxy checks its certificate against `--upstream-ca` when given, and
/// answers 502 with its reason when it does not trust it.
@Suite struct UpstreamTLSTests {
    /// The test-only certificate and key of Fixtures/ (see its README), for 127.0.0.1 and localhost.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let certificate = fixtures.appendingPathComponent("upstream-test.pem")

    static func serverTLS() throws -> TLSConfiguration {
        let key = try NIOSSLPrivateKey(file: fixtures.appendingPathComponent("upstream-test.key").path, format: .pem)
        let chain = try NIOSSLCertificate.fromPEMFile(certificate.path).map { NIOSSLCertificateSource.certificate($0) }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    }

    static func upstream() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/hello") { _, _ in "hello over tls" }
        return router
    }

    struct Failure: Decodable {
        struct Detail: Decodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    @Test func anHTTPSUpstreamTrustedWithUpstreamCAIsForwarded() async throws {
        try await BackendDouble.with(Self.upstream(), tls: try Self.serverTLS()) { baseURL in
            try await withProxy(upstream: baseURL, upstreamCA: Self.certificate) { proxy in
                let answer = try await RawHTTP.exchange(port: proxy.port, RawHTTP.request("GET", "/hello"))
                #expect(answer.status == 200)
                #expect(String(decoding: answer.body, as: UTF8.self) == "hello over tls")
            }
        }
    }

    @Test func anHTTPSUpstreamWhoseCertificateIsNotTrustedIsA502ThatSaysSo() async throws {
        // Without --upstream-ca the system's roots decide, and none of them signed the test certificate.
        try await BackendDouble.with(Self.upstream(), tls: try Self.serverTLS()) { baseURL in
            try await withProxy(upstream: baseURL) { proxy in
                let answer = try await RawHTTP.exchange(port: proxy.port, RawHTTP.request("GET", "/hello"))
                #expect(answer.status == 502)
                let failure = try JSONDecoder().decode(Failure.self, from: answer.body)
                #expect(failure.error.code == "upstream_untrusted")
                #expect(failure.error.message.contains("certificate is not trusted"))
            }
        }
    }

    @Test func anUpstreamCAThatIsNoPEMCertificateIsRefusedAtStart() async throws {
        let notPEM = Self.fixtures.appendingPathComponent("README.md")
        #expect(throws: AccessProxy.ConfigurationError.self) { try AccessProxy.trustRoots(notPEM) }
    }
}
