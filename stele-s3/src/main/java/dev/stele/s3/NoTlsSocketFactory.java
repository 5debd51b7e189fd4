package dev.stele.s3;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import javax.net.ssl.SSLException;
import org.apache.http.HttpHost;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

/**
 * The https socket factory of a client whose endpoint is {@code http://}: it refuses, with one line
 * naming the endpoint. Its use is that Apache's client, given it, builds no TLS context of its own.
 */
final class NoTlsSocketFactory implements ConnectionSocketFactory {
  private final URI endpoint;

  NoTlsSocketFactory(URI endpoint) {
    this.endpoint = endpoint;
  }

  @Override
  public Socket createSocket(HttpContext context) throws IOException {
    throw refusal();
  }

  @Override
  public Socket connectSocket(
      int connectTimeout,
      Socket socket,
      HttpHost host,
      InetSocketAddress remoteAddress,
      InetSocketAddress localAddress,
      HttpContext context)
      throws IOException {
    throw refusal();
  }

  private SSLException refusal() {
    return new SSLException(
        "the endpoint " + endpoint + " is plain http: this client was set up without TLS");
  }
}
