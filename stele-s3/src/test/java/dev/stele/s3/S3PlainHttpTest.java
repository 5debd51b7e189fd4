package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import org.junit.jupiter.api.Test;

/**
 * A client for an {@code http://} endpoint builds no TLS context (which reads the JDK's trust
 * store: 60-90 ms of every S3 command); one for {@code https://} still speaks TLS, also to an
 * endpoint given as an address (where the bucket goes in the path).
 */
class S3PlainHttpTest {
  @Test
  void aPlainHttpEndpointBuildsNoTrustManagers() throws Exception {
    CountingTrust counting = new CountingTrust();
    Security.insertProviderAt(counting, 1);
    try {
      assertThatThrownBy(() -> headBucket(at("http://127.0.0.1:1"))).isInstanceOf(S3Failure.class);
      assertThat(counting.factories).as("trust manager factories built for http").hasValue(0);

      TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      assertThat(counting.factories)
          .as("the test's premise: the counter sees a factory made the way TLS makes one")
          .doesNotHaveValue(0);
    } finally {
      Security.removeProvider(counting.getName());
    }
  }

  @Test
  void anHttpsEndpointStillOpensWithATlsHandshake() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Integer> firstByte =
          CompletableFuture.supplyAsync(
              () -> {
                try (Socket s = server.accept();
                    InputStream in = s.getInputStream()) {
                  return in.read();
                } catch (IOException e) {
                  return -1;
                }
              });
      URI endpoint = URI.create("https://127.0.0.1:" + server.getLocalPort());
      assertThatThrownBy(() -> headBucket(at(endpoint.toString()))).isInstanceOf(S3Failure.class);
      // 22: a TLS record of the handshake, the client's hello.
      assertThat(firstByte.get(10, TimeUnit.SECONDS)).isEqualTo(22);
    }
  }

  /** Sends one HEAD of the bucket, the way the store sends every request. */
  private static void headBucket(S3Location location) throws IOException {
    S3Http http = S3Http.connect(location, "us-east-1", S3Signing.credentials(location), List.of());
    http.send(new S3Http.Request("HeadBucket", "HEAD", null, new TreeMap<>(), Map.of(), null))
        .close();
  }

  private static S3Location at(String endpoint) {
    return S3Location.of("backups", "r")
        .withEndpoint(URI.create(endpoint))
        .withRegion("us-east-1")
        .withKeys(new AwsKeys("key", "secret", null));
  }

  /**
   * A security provider whose PKIX trust manager factory (the JDK's default algorithm) counts how
   * many are made, and trusts nothing.
   */
  private static final class CountingTrust extends Provider {
    final AtomicInteger factories = new AtomicInteger();

    CountingTrust() {
      super("stele-counting-trust", "1", "counts trust manager factories");
      putService(
          new Service(this, "TrustManagerFactory", "PKIX", Factory.class.getName(), null, null) {
            @Override
            public Object newInstance(Object parameter) {
              factories.incrementAndGet();
              return new Factory();
            }
          });
    }

    private static final class Factory extends TrustManagerFactorySpi {
      @Override
      protected void engineInit(KeyStore store) {}

      @Override
      protected void engineInit(ManagerFactoryParameters parameters) {}

      @Override
      protected TrustManager[] engineGetTrustManagers() {
        return new TrustManager[0];
      }
    }
  }
}
