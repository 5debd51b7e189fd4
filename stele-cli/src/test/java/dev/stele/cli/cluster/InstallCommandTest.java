package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.DeletionPolicy;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.operator.SteleOperator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele install} and {@code stele uninstall} against fabric8's CRUD mock API server: what is
 * rendered is the kustomize base in {@code deploy/}, edited for the options; it is valid against
 * the CRDs and {@code kubectl apply --dry-run=client} accepts it; {@code --apply} creates it; and
 * uninstall removes the operator without letting a repository's deletionPolicy run.
 */
@EnableKubernetesMockClient(crud = true)
class InstallCommandTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();

  static {
    SERIALIZATION.registerKubernetesResource(BackupStorageLocation.class);
  }

  private static final Path DEPLOY = Path.of("..", "deploy");

  KubernetesClient client;

  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  @Test
  void withoutOptionsItRendersTheKustomizeBase() throws Exception {
    Cli.Run run = new Cli(null, null).run("install", "--dry-run", "-o", "yaml");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);

    Process kustomize = new ProcessBuilder("kubectl", "kustomize", DEPLOY.toString()).start();
    String base = new String(kustomize.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(kustomize.waitFor()).as("kubectl kustomize deploy/").isZero();

    assertThat(normalized(parse(run.stdout())))
        .containsExactlyInAnyOrderElementsOf(normalized(parse(base)));
  }

  @Test
  void theKustomizationListsEveryCrd() throws IOException {
    try (Stream<Path> crds = Files.list(DEPLOY.resolve("crds"))) {
      assertThat(Installation.files())
          .containsAll(crds.map(p -> "crds/" + p.getFileName()).toList());
    }
  }

  @Test
  void theBaseRunsTheImageTheOperatorFallsBackTo() {
    // The image is named in both manifests and in Settings, the default restore-wait runs when
    // the operator cannot read its own pod: a release bumps all three or this fails.
    List<HasMetadata> objects = parse(render());
    var pods =
        List.of(
            only(objects, Deployment.class).getSpec().getTemplate().getSpec(),
            only(objects, DaemonSet.class).getSpec().getTemplate().getSpec());
    assertThat(pods)
        .flatMap(p -> p.getContainers())
        .extracting(c -> c.getImage())
        .containsOnly(SteleOperator.DEFAULT_IMAGE);
  }

  @Test
  void optionsEditTheObjectsAndTheResultIsValid() throws Exception {
    Path secret = dir.resolve("credentials");
    Files.writeString(secret, "[default]\naws_access_key_id=AK\naws_secret_access_key=SK\n");
    Cli.Run run =
        new Cli(null, null)
            .run(
                "install",
                "--dry-run",
                "-o",
                "yaml",
                "-n",
                "backup-system",
                "--image",
                "registry.example/stele:1.2",
                "--no-node-agent",
                "--operator-cpu-request",
                "50m",
                "--operator-memory-request",
                "200Mi",
                "--bucket",
                "backups",
                "--prefix",
                "cluster-a",
                "--endpoint",
                "https://rgw.example:8443",
                "--region",
                "eu-1",
                "--path-style",
                "--secret-file",
                secret.toString(),
                "--lock-mode",
                "compliance",
                "--min-retention",
                "30d");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    List<HasMetadata> objects = parse(run.stdout());

    assertThat(only(objects, Namespace.class).getMetadata().getName()).isEqualTo("backup-system");
    assertThat(objects)
        .filteredOn(o -> o.getMetadata().getNamespace() != null)
        .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("backup-system"));
    assertThat(objects)
        .filteredOn(o -> o instanceof RoleBinding || o instanceof ClusterRoleBinding)
        .flatMap(
            o ->
                o instanceof RoleBinding rb
                    ? rb.getSubjects()
                    : ((ClusterRoleBinding) o).getSubjects())
        .allSatisfy(s -> assertThat(s.getNamespace()).isEqualTo("backup-system"));
    assertThat(objects).noneMatch(o -> o instanceof DaemonSet);
    assertThat(objects).noneMatch(o -> o.getMetadata().getName().equals("stele-node-agent"));

    var container =
        only(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getImage()).isEqualTo("registry.example/stele:1.2");
    assertThat(container.getResources().getRequests())
        .containsEntry("cpu", new Quantity("50m"))
        .containsEntry("memory", new Quantity("200Mi"));

    var bsl = only(objects, BackupStorageLocation.class);
    assertThat(bsl.getMetadata().getName()).isEqualTo("default");
    assertThat(bsl.getSpec().provider).isEqualTo("s3");
    assertThat(bsl.getSpec().objectStorage.bucket).isEqualTo("backups");
    assertThat(bsl.getSpec().objectStorage.prefix).isEqualTo("cluster-a");
    assertThat(bsl.getSpec().config)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "s3Url", "https://rgw.example:8443", "region", "eu-1", "s3ForcePathStyle", "true"));
    assertThat(bsl.getSpec().objectLock.mode).isEqualTo("Compliance");
    assertThat(bsl.getSpec().objectLock.minimumRetention).isEqualTo("30d");
    assertThat(bsl.getSpec().credential.getName()).isEqualTo("s3-credentials");
    Secret credentials = only(objects, Secret.class);
    assertThat(credentials.getMetadata().getName()).isEqualTo("s3-credentials");
    assertThat(Base64.getDecoder().decode(credentials.getData().get("cloud")))
        .isEqualTo(Files.readAllBytes(secret));

    List<CustomResourceDefinition> crds = all(objects, CustomResourceDefinition.class);
    assertThat(crds).hasSize(9);
    assertThat(CrdSchema.problems(bsl, crds)).isEmpty();

    // kubectl maps every kind through discovery, which the test server answers (with the CRDs
    // once they exist); it serves no OpenAPI documents, hence --validate=false: the schema check
    // above is the validation.
    Path file = dir.resolve("install.yaml");
    Files.writeString(file, run.stdout());
    try (ApiServer server = new ApiServer();
        KubernetesClient c = server.client()) {
      crds.forEach(crd -> c.resource(crd).create());
      Path kubeconfig = dir.resolve("kubeconfig-test-server");
      ClusterFixture.writeKubeconfig(kubeconfig, "mock", server.url());
      String said =
          kubectl(
              kubeconfig, "apply", "--dry-run=client", "--validate=false", "-f", file.toString());
      assertThat(said)
          .contains("namespace/backup-system created (dry run)")
          .contains("deployment.apps/stele-operator created (dry run)")
          .contains("backupstoragelocation.stele.dev/default created (dry run)");
    }
  }

  /** kubectl's output; a failure when it exits other than 0. */
  private static String kubectl(Path kubeconfig, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("kubectl"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("KUBECONFIG", kubeconfig.toString());
    Process kubectl = pb.start();
    kubectl.getOutputStream().close();
    String said = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(kubectl.exitValue()).as(said).isZero();
    return said;
  }

  @Test
  void theSchemaCheckRefusesWhatTheApiServerWould() {
    var bsl = only(parse(render("--bucket", "backups")), BackupStorageLocation.class);
    var crds = all(parse(render()), CustomResourceDefinition.class);
    bsl.getSpec().objectStorage.bucket = "Not_A_Bucket";
    bsl.getSpec().provider = null;
    assertThat(CrdSchema.problems(bsl, crds))
        .anyMatch(p -> p.contains("bucket") && p.contains("does not match"))
        .anyMatch(p -> p.contains("provider is required"));
  }

  @Test
  void aLockedModeWithoutRetentionIsAUsageError() {
    Cli.Run run =
        new Cli(null, null).run("install", "--bucket", "backups", "--lock-mode", "governance");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly("stele: --lock-mode governance needs --min-retention");
  }

  @Test
  void applyCreatesEveryObjectAndCanRunAgain() {
    for (int i = 0; i < 2; i++) {
      Cli.Run run = k8s.run("install", "--apply", "--bucket", "backups");
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
      assertThat(run.stdout()).contains("Stele is installed in namespace stele.");
    }
    for (HasMetadata o : parse(render("--bucket", "backups"))) {
      assertThat(client.resource(o).get())
          .as(o.getKind() + " " + o.getMetadata().getName())
          .isNotNull();
    }
  }

  @Test
  void uninstallRemovesTheOperatorAndKeepsRepositoriesSecretsAndCrds() {
    assertThat(k8s.run("install", "--apply").exitCode()).isEqualTo(ExitCode.OK);
    BackupStorageLocationRepository bslr = repositoryWithDeletePolicy();
    k8s.secret("team-a-repository-password", "password", "p");

    Cli.Run run = k8s.run("uninstall");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);

    assertThat(client.apps().deployments().inNamespace("stele").withName("stele-operator").get())
        .isNull();
    assertThat(client.apps().daemonSets().inNamespace("stele").list().getItems()).isEmpty();
    assertThat(client.serviceAccounts().inNamespace("stele").list().getItems())
        .extracting(ServiceAccount::getMetadata)
        .noneMatch(m -> m.getName().startsWith("stele-"));
    assertThat(client.rbac().clusterRoles().list().getItems())
        .extracting(ClusterRole::getMetadata)
        .noneMatch(m -> m.getName().startsWith("stele-"));
    assertThat(client.namespaces().withName("stele").get()).isNotNull();
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
        .hasSize(9);
    var kept = k8s.get(BackupStorageLocationRepository.class, "team-a");
    assertThat(kept.getMetadata().getFinalizers()).contains(UninstallCommand.FINALIZER);
    assertThat(k8s.get(Secret.class, "team-a-repository-password")).isNotNull();
    assertThat(run.stdout())
        .contains("Kept: namespace stele and its Secrets")
        .contains("the CRDs and every Stele resource");
    assertThat(bslr).isNotNull();
  }

  @Test
  void uninstallNamesOnlyWhatItDeleted() {
    assertThat(k8s.run("install", "--apply", "--no-node-agent").exitCode()).isEqualTo(ExitCode.OK);

    Cli.Run run = k8s.run("uninstall");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stdout())
        .contains("deleted Deployment stele-operator")
        .doesNotContain("stele-node-agent");

    Cli.Run again = k8s.run("uninstall");
    assertThat(again.exitCode()).as(again.stderr()).isEqualTo(ExitCode.OK);
    assertThat(again.stdout()).doesNotContain("deleted ");
  }

  @Test
  void uninstallWithCrdsTakesTheFinalizerOffBeforeDeletingTheCrds() {
    assertThat(k8s.run("install", "--apply").exitCode()).isEqualTo(ExitCode.OK);
    repositoryWithDeletePolicy();
    k8s.secret("team-a-repository-password", "password", "p");

    Cli.Run run = k8s.run("uninstall", "--crds");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);

    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems()).isEmpty();
    // The mock does not delete the resources with their CRD: what a real server would delete
    // carries no finalizer, so no operator ever runs its deletionPolicy.
    var bslr = k8s.get(BackupStorageLocationRepository.class, "team-a");
    assertThat(bslr.getMetadata().getFinalizers()).doesNotContain(UninstallCommand.FINALIZER);
    assertThat(bslr.getSpec().deletionPolicy).isEqualTo("Delete");
    assertThat(client.namespaces().withName("stele").get()).isNotNull();
    assertThat(k8s.get(Secret.class, "team-a-repository-password")).isNotNull();
    assertThat(client.apps().deployments().inNamespace("stele").list().getItems()).isEmpty();
  }

  @Test
  void uninstallRemovesNothingMoreWhileTheOperatorsPodsRun() {
    assertThat(k8s.run("install", "--apply").exitCode()).isEqualTo(ExitCode.OK);
    client
        .pods()
        .inNamespace("stele")
        .resource(
            new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata()
                .withName("stele-operator-abc")
                .addToLabels("app.kubernetes.io/name", "stele-operator")
                .endMetadata()
                .build())
        .create();
    repositoryWithDeletePolicy();

    Cli.Run run = k8s.run("uninstall", "--crds", "--timeout", "1s");

    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: pods of stele-operator are still running after 1s; nothing else was"
                + " removed: run stele uninstall again");
    assertThat(client.rbac().clusterRoles().withName("stele-operator-restorer").get()).isNotNull();
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
        .hasSize(9);
    assertThat(
            k8s.get(BackupStorageLocationRepository.class, "team-a").getMetadata().getFinalizers())
        .contains(UninstallCommand.FINALIZER);
  }

  private BackupStorageLocationRepository repositoryWithDeletePolicy() {
    var spec = new BackupStorageLocationRepositorySpec();
    spec.backupStorageLocation = "default";
    spec.deletionPolicy = DeletionPolicy.DELETE.value();
    var r = new BackupStorageLocationRepository();
    r.setMetadata(
        new ObjectMetaBuilder()
            .withName("team-a")
            .withFinalizers(UninstallCommand.FINALIZER)
            .build());
    r.setSpec(spec);
    return k8s.create(r);
  }

  private static String render(String... options) {
    List<String> args = new ArrayList<>(List.of("install", "--dry-run"));
    args.addAll(List.of(options));
    Cli.Run run = new Cli(null, null).run(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    return run.stdout();
  }

  static List<HasMetadata> parse(String yaml) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String doc : yaml.split("(?m)^---\\s*$", -1)) {
      if (!doc.isBlank()) {
        objects.add(SERIALIZATION.unmarshal(doc));
      }
    }
    return objects;
  }

  /** As JSON trees, whose equality ignores the order of an object's fields. */
  private static List<JsonNode> normalized(List<HasMetadata> objects) {
    return objects.stream().map(o -> tree(SERIALIZATION.asJson(o))).toList();
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static <T> List<T> all(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static <T> T only(List<HasMetadata> objects, Class<T> type) {
    List<T> found = all(objects, type);
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }
}
