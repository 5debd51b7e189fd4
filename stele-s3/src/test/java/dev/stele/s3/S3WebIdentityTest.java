package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod with IAM roles for service accounts (EKS) has only a web identity token and a role: the
 * store's requests are then signed with the temporary keys STS gives for them. A fake STS here
 * answers AssumeRoleWithWebIdentity and records what it was asked.
 */
class S3WebIdentityTest {
  private static final List<String> PROPERTIES =
      List.of(
          "aws.webIdentityTokenFile",
          "aws.roleArn",
          "aws.roleSessionName",
          "aws.region",
          "aws.endpointUrlSts");

  @TempDir Path tmp;
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private ServerSocket sts;

  @BeforeEach
  void startSts() throws IOException {
    sts = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread serving = new Thread(this::serve, "fake-sts");
    serving.setDaemon(true);
    serving.start();
    Path token = tmp.resolve("token");
    Files.writeString(token, "eyJ-the-pods-token");
    System.setProperty("aws.webIdentityTokenFile", token.toString());
    System.setProperty("aws.roleArn", "arn:aws:iam::123456789012:role/stele");
    System.setProperty("aws.roleSessionName", "stele-test");
    System.setProperty("aws.region", "eu-west-3");
    System.setProperty("aws.endpointUrlSts", "http://127.0.0.1:" + sts.getLocalPort());
  }

  @AfterEach
  void stopSts() throws IOException {
    PROPERTIES.forEach(System::clearProperty);
    sts.close();
  }

  /** Answers each request, one per connection, with temporary credentials. */
  private void serve() {
    while (!sts.isClosed()) {
      try (Socket s = sts.accept()) {
        BufferedReader in =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        String requestLine = in.readLine();
        int length = 0;
        for (String header = in.readLine(); header != null && !header.isEmpty(); ) {
          if (header.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
            length = Integer.parseInt(header.substring(15).strip());
          }
          header = in.readLine();
        }
        char[] body = new char[length];
        int read = 0;
        while (read < length) {
          int n = in.read(body, read, length - read);
          if (n < 0) {
            break;
          }
          read += n;
        }
        asked.add(requestLine + " " + new String(body, 0, read));
        String answer =
            "<AssumeRoleWithWebIdentityResponse"
                + " xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<AssumeRoleWithWebIdentityResult><Credentials>"
                + "<AccessKeyId>ASIATEMPORARY</AccessKeyId>"
                + "<SecretAccessKey>temporary-secret</SecretAccessKey>"
                + "<SessionToken>the-session-token</SessionToken>"
                + "<Expiration>2099-01-01T00:00:00Z</Expiration>"
                + "</Credentials></AssumeRoleWithWebIdentityResult>"
                + "</AssumeRoleWithWebIdentityResponse>";
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        OutputStream out = s.getOutputStream();
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: "
                    + bytes.length
                    + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Test
  void aWebIdentityTokenIsExchangedForTemporaryKeys() {
    S3Location location = S3Location.of("backups", "r");

    AwsKeys credentials = S3Signing.credentials(location).get();

    assertThat(credentials.accessKey()).isEqualTo("ASIATEMPORARY");
    assertThat(credentials.secretKey()).isEqualTo("temporary-secret");
    assertThat(credentials.sessionToken()).isEqualTo("the-session-token");
    assertThat(asked)
        .singleElement()
        .asString()
        .contains("Action=AssumeRoleWithWebIdentity")
        .contains("WebIdentityToken=eyJ-the-pods-token")
        .contains("RoleArn=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fstele");
  }
}
