package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.KubeletVolume;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server on its users Secret, certificate Secret and access ConfigMap mounted as the kubelet
 * mounts them ({@code ..data} links, swapped atomically on a change), at the paths the operator's
 * Deployment gives: a user added logs in and a user removed cannot, a renewed certificate is
 * presented, all without a restart.
 */
class MountedVolumesTest {
  @TempDir Path tmp;
  private ServerFixture f;
  private KubeletVolume users;
  private KubeletVolume tls;

  @BeforeEach
  void setUp() throws Exception {
    f = new ServerFixture(tmp.resolve("server"));
    Path etc = tmp.resolve("etc/stele");
    users = new KubeletVolume(etc.resolve("users"));
    users.write(Map.of("alice", "alice-password"));
    tls = new KubeletVolume(etc.resolve("tls"));
    tls.write(pair(f.dir));
    KubeletVolume access = new KubeletVolume(etc.resolve("access"));
    access.write(Map.of("access.json", "{}"));
    f.start(tls.file("tls.crt"), tls.file("tls.key"), users.dir(), access.file("access.json"));
  }

  @AfterEach
  void tearDown() throws Exception {
    f.close();
  }

  private static Map<String, String> pair(Path dir) throws Exception {
    return Map.of(
        "tls.crt", Files.readString(dir.resolve("tls.crt")),
        "tls.key", Files.readString(dir.resolve("tls.key")));
  }

  @Test
  void aUserAddedToTheSecretLogsInAndAUserRemovedCannot() throws Exception {
    assertThat(f.login("alice", "alice-password").statusCode()).isEqualTo(200);
    assertThat(f.login("bob", "bob-password").statusCode()).isEqualTo(401);

    users.write(Map.of("alice", "alice-password", "bob", "bob-password"));
    assertThat(f.login("bob", "bob-password").statusCode()).isEqualTo(200);

    users.write(Map.of("bob", "bob-password"));
    assertThat(f.login("alice", "alice-password").statusCode()).isEqualTo(401);
    assertThat(f.login("bob", "bob-password").statusCode()).isEqualTo(200);
    // The kubelet's own entries are never users.
    assertThat(f.login("..data", "").statusCode()).isEqualTo(401);
  }

  @Test
  void aRenewedCertificateSecretIsPresentedByTheNextHandshake() throws Exception {
    assertThat(f.presented()).isEqualTo(f.certificate());
    Path side = Files.createDirectories(tmp.resolve("renewed"));
    X509Certificate renewed = ServerFixture.certificate(side, "renewed");

    tls.write(pair(side));

    assertThat(f.presented()).isEqualTo(renewed);
    assertThat(f.fingerprint()).isEqualTo(Tls.fingerprint(renewed));
  }
}
