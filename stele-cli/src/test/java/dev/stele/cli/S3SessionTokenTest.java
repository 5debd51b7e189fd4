package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Temporary keys (STS, SSO) come with a session token, which every request must carry: without it
 * S3 refuses the keys. The command's environment gives all three.
 */
class S3SessionTokenTest {
  @Test
  void theEnvironmentsSessionTokenIsSentWithItsKeys() throws Exception {
    List<String> tokens = new CopyOnWriteArrayList<>();
    List<String> authorizations = new CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          tokens.add(String.valueOf(exchange.getRequestHeaders().getFirst("x-amz-security-token")));
          authorizations.add(
              String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          byte[] body =
              "<Error><Code>AccessDenied</Code><Message>no</Message></Error>"
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(403, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    try {
      Cli.Run run =
          new Cli("s3://session-bucket/repo", "pw")
              .with("STELE_S3_ENDPOINT", "http://127.0.0.1:" + server.getAddress().getPort())
              .with("STELE_S3_REGION", "us-east-1")
              .with("STELE_S3_PATH_STYLE", "true")
              .with("AWS_ACCESS_KEY_ID", "ASIATEMPORARY")
              .with("AWS_SECRET_ACCESS_KEY", "temporary-secret")
              .with("AWS_SESSION_TOKEN", "the-session-token")
              .run("snapshot", "list");

      assertThat(run.exitCode()).isNotZero();
      assertThat(run.stderr()).contains("403").doesNotContain("\tat ");
    } finally {
      server.stop(0);
    }
    assertThat(tokens).isNotEmpty().allMatch("the-session-token"::equals);
    assertThat(authorizations)
        .allMatch(
            a -> a.contains("Credential=ASIATEMPORARY/") && a.contains("x-amz-security-token"));
  }
}
