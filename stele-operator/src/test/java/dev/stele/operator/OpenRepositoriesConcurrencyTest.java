package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.operator.store.OpenRepositories;
import dev.stele.operator.store.OpenRepositories.Dependencies;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.testing.Await;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two reconcilers asking for one repository at once open it once; a dropped repository is closed
 * only when the last session using it closes.
 */
@EnableKubernetesMockClient(crud = true)
class OpenRepositoriesConcurrencyTest {
  static KubernetesClient client;

  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T12:00:00Z"));
  final AtomicInteger opens = new AtomicInteger();
  final AtomicInteger closes = new AtomicInteger();
  final OpenRepositories registry = new OpenRepositories();
  final Dependencies dependencies = new Dependencies(Set.of("pw"), "location");
  BlobStore store;

  @BeforeEach
  void setUp() throws IOException {
    Lifecycle.clean(client);
    new OperatorFixture(client).secret("pw", Map.of("password", "pw"));
    store =
        new ForwardingBlobStore(new InMemoryBlobStore(clock)) {
          @Override
          public void close() {
            closes.incrementAndGet();
          }
        };
    Repository.init(
            store,
            "pw".toCharArray(),
            RepositoryInit.defaults(clock).withKdf(OperatorFixture.cheapKdf()))
        .close();
    closes.set(0);
  }

  @AfterEach
  void tearDown() {
    registry.close();
  }

  Repository open() throws IOException {
    opens.incrementAndGet();
    return Repository.open(store, "pw".toCharArray(), clock);
  }

  Repository session(OpenRepositories.Opening<RuntimeException> opening) throws IOException {
    return registry.open(client, NS, "repo", dependencies, null, opening);
  }

  @Test
  void twoAskingAtOnceOpenItOnce() throws Exception {
    CountDownLatch opening = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Repository> first =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return session(
                    () -> {
                      opening.countDown();
                      try {
                        release.await();
                      } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                      }
                      return open();
                    });
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(opening.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Repository> second =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return session(this::open);
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    release.countDown();
    try (Repository a = first.get(10, TimeUnit.SECONDS);
        Repository b = second.get(10, TimeUnit.SECONDS)) {
      assertThat(b.format().id()).isEqualTo(a.format().id());
    }
    assertThat(opens).hasValue(1);
    assertThat(registry.size()).isEqualTo(1);
    assertThat(closes).hasValue(0);
  }

  @Test
  void aDroppedRepositoryClosesWhenItsLastSessionDoes() throws IOException {
    Repository inUse = session(this::open);
    registry.close(NS, "repo");
    assertThat(registry.size()).isZero();
    assertThat(closes).as("closed under a session in use").hasValue(0);
    assertThat(inUse.loadIndex()).isNotNull();
    inUse.close();
    inUse.close();
    assertThat(closes).hasValue(1);

    session(this::open).close();
    assertThat(opens).as("opened anew after the drop").hasValue(2);
  }

  @Test
  void aChangedSecretDropsTheRepositoriesOpenedWithIt() throws IOException {
    session(this::open).close();
    session(this::open).close();
    assertThat(opens).hasValue(1);

    new OperatorFixture(client).secret("pw", Map.of("password", "changed"));
    Await.until("the change seen", registry::size, n -> n == 0);
    assertThat(closes).hasValue(1);
    session(this::open).close();
    assertThat(opens).hasValue(2);
  }
}
