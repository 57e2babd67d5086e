import AccessAPI
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// A request NIO's parser rejects (headers or request line over the size limit, Content-Length together
/// with chunked encoding, bad framing) never reaches the router: Hummingbird answers it itself with an
/// empty 400 and closes the connection. This handler sits between the HTTP codec and Hummingbird, notes
/// the parser error on its way in, and turns that empty 400 into the contract's JSON error on its way out.
/// The status and the connection close stay exactly as Hummingbird decided.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var parserError: HTTPParserError?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { parserError = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let error = parserError, case .head(var head) = unwrapOutboundIn(data), head.status == .badRequest,
            head.headerFields[.contentLength] == "0"
        else {
            context.write(data, promise: promise)
            return
        }
        parserError = nil
        let detail = Self.detail(for: error)
        let bytes = (try? APIJSON.makeEncoder().encode(APIErrorBody(error: detail))) ?? Data()
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(bytes.count)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: bytes))), promise: promise)
    }

    /// Names the problem without quoting any of the request (it could hold a token).
    static func detail(for error: HTTPParserError) -> APIErrorDetail {
        switch error {
        case .headerOverflow:
            return APIErrorDetail(
                code: .headersTooLarge,
                message: "The request line and headers are larger than the server accepts (80 KiB).")
        case .unexpectedContentLength, .invalidContentLength, .invalidChunkSize:
            return APIErrorDetail(
                code: .badFraming,
                message: "The request body's framing is invalid (for example Content-Length with chunked encoding).")
        default:
            // NIO folds several llhttp errors into `.unknown`, Transfer-Encoding after Content-Length among
            // them, so the message can only say what kind of thing went wrong.
            return APIErrorDetail(
                code: .badRequest, message: "The request is not valid HTTP/1.1 (its framing or headers).")
        }
    }
}
