package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
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
 * Where a location without a region gets one: the instance metadata is asked on AWS only. Off EC2,
 * asking it cost every command against RGW or MinIO 1.5 s of timeouts. A fake metadata service here
 * answers eu-west-3 and records what it was asked.
 */
class S3RegionTest {
  private static final String METADATA = "aws.ec2MetadataServiceEndpoint";
  private static final String CONFIG = "aws.configFile";

  @TempDir Path tmp;
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private ServerSocket metadata;
  private Thread serving;

  @BeforeEach
  void startMetadataService() throws IOException {
    metadata = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    serving = new Thread(this::serve, "fake-instance-metadata");
    serving.setDaemon(true);
    serving.start();
    System.setProperty(METADATA, "http://127.0.0.1:" + metadata.getLocalPort());
    Path config = tmp.resolve("config");
    Files.writeString(config, "[profile team]\nregion = ap-south-1\n");
    System.setProperty(CONFIG, config.toString());
  }

  /**
   * Answers every request, one per connection: a token for the token path, else an instance
   * identity document in eu-west-3.
   */
  private void serve() {
    while (!metadata.isClosed()) {
      try (Socket s = metadata.accept()) {
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        String[] request = String.valueOf(in.readLine()).split(" ", 3);
        for (String header = in.readLine(); header != null && !header.isEmpty(); ) {
          header = in.readLine();
        }
        asked.add(request[0] + " " + request[1]);
        String body = request[1].endsWith("/api/token") ? "a-token" : "{\"region\": \"eu-west-3\"}";
        s.getOutputStream()
            .write(
                ("HTTP/1.1 200 OK\r\nContent-Length: "
                        + body.length()
                        + "\r\nConnection: close\r\n\r\n"
                        + body)
                    .getBytes(StandardCharsets.US_ASCII));
      } catch (IOException | RuntimeException e) {
        // closed, or a client that went away
      }
    }
  }

  @AfterEach
  void stopMetadataService() throws IOException {
    System.clearProperty(METADATA);
    System.clearProperty(CONFIG);
    metadata.close();
  }

  @Test
  void anEndpointOfItsOwnNeverAsksTheInstanceMetadata() {
    S3Location rgw = S3Location.of("backups", "r").withEndpoint(URI.create("http://127.0.0.1:1"));

    assertThat(S3Signing.region(rgw)).isEqualTo("us-east-1");
    assertThat(asked).isEmpty();
  }

  @Test
  void onAwsTheInstanceMetadataIsAskedLast() {
    assertThat(S3Signing.region(S3Location.of("backups", "r"))).isEqualTo("eu-west-3");
    assertThat(asked).contains("GET /latest/dynamic/instance-identity/document");
  }

  @Test
  void theLocationsProfileGivesItsRegion() {
    S3Location rgw =
        S3Location.of("backups", "r")
            .withEndpoint(URI.create("http://127.0.0.1:1"))
            .withProfile("team");

    assertThat(S3Signing.region(rgw)).isEqualTo("ap-south-1");
    assertThat(S3Signing.region(rgw.withRegion("eu-north-1"))).isEqualTo("eu-north-1");
    assertThat(asked).isEmpty();
  }
}
