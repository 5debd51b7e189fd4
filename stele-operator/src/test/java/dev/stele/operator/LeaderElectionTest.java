package dev.stele.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.operator.store.Place;
import dev.stele.operator.store.StoreFactory;
import dev.stele.s3.BucketConfig;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of the whole operator, as production runs them (server-side apply, leader election
 * through a Lease) against the test API server: only the leader reconciles; when it stops it
 * releases the Lease and the other takes over, and when it dies the other takes over once the Lease
 * expires. Which replica reconciled is told by the stores each opened: each has its own.
 */
class LeaderElectionTest {
  private static final Await.Policy WAIT = Await.atMost(Duration.ofSeconds(60));

  @TempDir Path base;
  ApiServer server;
  KubernetesClient client;
  SteleOperator a;
  SteleOperator b;
  final List<KubernetesClient> clients = new ArrayList<>();

  @BeforeEach
  void start() {
    server = new ApiServer();
    client = server.client();
  }

  @AfterEach
  void stop() {
    for (SteleOperator o : new SteleOperator[] {b, a}) {
      try {
        if (o != null) {
          o.close();
        }
      } catch (RuntimeException e) {
        // the replica whose client was closed cannot stop cleanly; the others are what matter
      }
    }
    clients.forEach(KubernetesClient::close);
    client.close();
    server.close();
  }

  /** A counting replica named {@code identity}: a short lease, and no exit on losing it. */
  SteleOperator replica(String identity, AtomicInteger inspections) throws IOException {
    StoreFactory real = new DefaultStoreFactory(Clock.systemUTC());
    StoreFactory counting =
        new StoreFactory() {
          @Override
          public BucketConfig inspect(Place place) throws IOException {
            inspections.incrementAndGet();
            return real.inspect(place);
          }

          @Override
          public BlobStore open(Place place, String path) throws IOException {
            return real.open(place, path);
          }
        };
    LeaderElectionConfiguration election =
        LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(SteleOperator.LEASE)
            .withLeaseNamespace(OperatorFixture.NS)
            .withIdentity(identity)
            .withLeaseDuration(Duration.ofSeconds(3))
            .withRenewDeadline(Duration.ofSeconds(2))
            .withRetryPeriod(Duration.ofMillis(200))
            .withExitOnStopLeading(false)
            .build();
    // Each replica its own client, as two pods have.
    KubernetesClient own = server.client();
    clients.add(own);
    return SteleOperator.start(
        own,
        new Settings(Clock.systemUTC(), counting, OperatorFixture::cheapKdf),
        -1,
        true,
        OperatorFixture.NS,
        election);
  }

  @Test
  void onlyTheLeaderReconcilesAndTheOtherTakesOverWhenItStops() throws Exception {
    AtomicInteger byA = new AtomicInteger();
    AtomicInteger byB = new AtomicInteger();
    a = replica("replica-a", byA);
    WAIT.until("replica-a to lead", () -> "replica-a".equals(holder()));
    b = replica("replica-b", byB);

    OperatorFixture op = new OperatorFixture(client);
    op.bsl("one", location("one"));
    WAIT.until("one Available", () -> available(op, "one"));
    assertThat(byA.get()).isPositive();
    assertThat(byB.get()).as("the follower reconciled").isZero();
    assertThat(holder()).isEqualTo("replica-a");

    a.close(); // SIGTERM: the reconcilers stop and the Lease is released
    a = null;
    assertThat(holder()).as("the Lease once replica-a stopped").isNotEqualTo("replica-a");
    WAIT.until("replica-b to lead", () -> "replica-b".equals(holder()));
    op.bsl("two", location("two"));
    WAIT.until("two Available", () -> available(op, "two"));
    assertThat(byB.get()).isPositive();
  }

  @Test
  void aFollowerTakesOverFromALeaderThatDiedWithoutLettingGo() throws Exception {
    AtomicInteger byA = new AtomicInteger();
    AtomicInteger byB = new AtomicInteger();
    a = replica("replica-a", byA);
    WAIT.until("replica-a to lead", () -> "replica-a".equals(holder()));
    b = replica("replica-b", byB);

    // As a killed pod: it renews nothing from now on, and releases nothing.
    clients.get(0).close();
    WAIT.until("replica-b to lead", () -> "replica-b".equals(holder()));

    OperatorFixture op = new OperatorFixture(client);
    op.bsl("three", location("three"));
    WAIT.until("three Available", () -> available(op, "three"));
    assertThat(byB.get()).isPositive();
    assertThat(byA.get()).isZero();
  }

  private BackupStorageLocationSpec location(String name) throws IOException {
    Files.createDirectories(base.resolve(name).resolve("bucket"));
    var spec = OperatorFixture.filesystemLocation(base.resolve(name));
    spec.createDefaultRepository = false;
    return spec;
  }

  private static boolean available(OperatorFixture op, String name) {
    var bsl = op.bsl(name);
    return bsl != null
        && bsl.getStatus() != null
        && bsl.getStatus().phase == LocationPhase.AVAILABLE;
  }

  private String holder() {
    Lease lease =
        client.leases().inNamespace(OperatorFixture.NS).withName(SteleOperator.LEASE).get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }
}
