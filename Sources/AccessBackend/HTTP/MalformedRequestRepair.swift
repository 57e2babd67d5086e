import AccessAPI
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A request NIO's parser rejects (headers or request line over the size limit, Content-Length together
/// with chunked encoding, bad framing) never reaches the router: Hummingbird answers it itself with an
/// empty 400 and closes the connection. This notes the parser error on its way in, between NIO's HTTP/1 codec and
/// Hummingbird (`ConnectionHandler`), and turns that empty 400 into the contract's JSON error on its way out.
/// The status and the connection close stay exactly as Hummingbird decided.
///
/// It also carries the answer to a CONNECT. NIO's response encoder frames every answer to a CONNECT
/// without a body (right only for a 2xx, which opens a tunnel), so the gateway's JSON 4xx went out empty.
/// This server never tunnels: the answer is written whole, below the encoder, and the connection closed
/// (after a CONNECT the request parser no longer reads HTTP anyway).
/// A class, as the handler it was made from was: a write from inside one of its methods can come back to the
/// connection's handler before that method returns.
final class MalformedRequestRepair {
    private var parserError: HTTPParserError?
    /// The answer to a CONNECT, gathered until it is complete.
    private var connectAnswer: (head: HTTPResponse?, body: ByteBuffer)?

    func read(_ part: HTTPRequestPart) {
        if case .head(let head) = part, head.method == .connect {
            connectAnswer = (nil, ByteBuffer())
        }
    }

    func errorCaught(_ error: any Error) {
        if let error = error as? HTTPParserError { parserError = error }
    }

    /// Writes `part` on as NIO's HTTP/1 part (the conversion `HTTP1ToHTTPServerCodec` made before
    /// `ConnectionHandler` took its place), or what it stands for.
    func write(_ part: HTTPResponsePart, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        if connectAnswer != nil {
            gatherConnectAnswer(part, context: context, promise: promise)
            return
        }
        guard let error = parserError, case .head(var head) = part, head.status == .badRequest,
            head.headerFields[.contentLength] == "0"
        else {
            context.write(NIOAny(Self.http1(part)), promise: promise)
            return
        }
        parserError = nil
        let detail = Self.detail(for: error)
        let bytes = (try? APIJSON.makeEncoder().encode(APIErrorBody(error: detail))) ?? Data()
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(bytes.count)
        context.write(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(head))), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: promise)
    }

    static func http1(_ part: HTTPResponsePart) -> HTTPServerResponsePart {
        switch part {
        case .head(let response): return .head(HTTPResponseHead(response))
        case .body(let body): return .body(.byteBuffer(body))
        case .end(let trailers): return .end(trailers.map(HTTPHeaders.init))
        }
    }

    private func gatherConnectAnswer(
        _ part: HTTPResponsePart, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?
    ) {
        switch part {
        case .head(let head):
            connectAnswer?.head = head
            promise?.succeed()
        case .body(var chunk):
            connectAnswer?.body.writeBuffer(&chunk)
            promise?.succeed()
        case .end:
            guard let answer = connectAnswer, let head = answer.head,
                let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
            else {
                context.close(promise: nil)
                promise?.fail(ChannelError.ioOnClosedChannel)
                return
            }
            connectAnswer = nil
            var bytes = ByteBuffer()
            bytes.writeString("HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n")
            var fields = head.headerFields
            fields[.contentLength] = String(answer.body.readableBytes)
            fields[.connection] = "close"
            for field in fields { bytes.writeString("\(field.name.rawName): \(field.value)\r\n") }
            bytes.writeString("\r\n")
            bytes.writeImmutableBuffer(answer.body)
            // From the encoder's own context the bytes go on to the socket without passing through it.
            let channel = context.channel
            encoder.writeAndFlush(NIOAny(bytes)).whenComplete { result in
                channel.close(promise: nil)
                promise?.completeWith(result)
            }
        }
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
