package dev.stele.k8s.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.ByteArrayOutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the test API server adds to fabric8's CRUD mock: apply patches, discovery, CRDs that are
 * Established before their custom resources are served, set-based selectors, exec.
 */
class ApiServerTest {
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  ConfigMap apply(String manager, Map<String, String> data) {
    ConfigMap cm =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("settings")
            .withNamespace("ns")
            .endMetadata()
            .withData(data)
            .build();
    return client.resource(cm).fieldManager(manager).forceConflicts().serverSideApply();
  }

  @Test
  void anApplyCreatesWhatIsAbsentAndMergesIntoWhatExists() {
    assertThat(apply("one", Map.of("a", "1")).getData()).containsExactly(Map.entry("a", "1"));
    client
        .configMaps()
        .inNamespace("ns")
        .withName("settings")
        .edit(c -> new ConfigMapBuilder(c).addToData("by-someone-else", "x").build());

    ConfigMap merged = apply("one", Map.of("a", "2", "b", "3"));

    assertThat(merged.getData())
        .containsOnly(Map.entry("a", "2"), Map.entry("b", "3"), Map.entry("by-someone-else", "x"));
  }

  @Test
  void aFieldTheManagerNoLongerAppliesIsRemovedAndOthersKeepTheirs() {
    apply("one", Map.of("a", "1", "b", "2"));
    apply("two", Map.of("c", "3"));

    ConfigMap after = apply("one", Map.of("a", "1"));

    assertThat(after.getData()).containsOnly(Map.entry("a", "1"), Map.entry("c", "3"));
  }

  @Test
  void discoveryListsBuiltInTypesAndCrdsOnceCreated() {
    assertThat(client.getApiResources("v1").getResources())
        .extracting(APIResource::getName)
        .contains("namespaces", "secrets", "pods");
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("widgets.example.com")
                .endMetadata()
                .withNewSpec()
                .withGroup("example.com")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("Widget")
                .withPlural("widgets")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .build())
        .create();

    assertThat(client.getApiGroups().getGroups()).anyMatch(g -> g.getName().equals("example.com"));
    assertThat(client.getApiResources("example.com/v1").getResources())
        .extracting(APIResource::getKind)
        .containsExactly("Widget");
  }

  static CustomResourceDefinition crd(String plural, String kind) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(plural + ".example.com")
        .endMetadata()
        .withNewSpec()
        .withGroup("example.com")
        .withScope("Namespaced")
        .withNewNames()
        .withKind(kind)
        .withPlural(plural)
        .endNames()
        .addNewVersion()
        .withName("v1")
        .withServed(true)
        .withStorage(true)
        .endVersion()
        .endSpec()
        .build();
  }

  static GenericKubernetesResource widget(String plural, String kind) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("example.com/v1")
        .withKind(kind)
        .withNewMetadata()
        .withName("blue")
        .withNamespace("ns")
        .endMetadata()
        .build();
  }

  GenericKubernetesResource createWidget(String plural, String kind) {
    return client
        .genericKubernetesResources(
            new ResourceDefinitionContext.Builder()
                .withGroup("example.com")
                .withVersion("v1")
                .withPlural(plural)
                .withKind(kind)
                .withNamespaced(true)
                .build())
        .inNamespace("ns")
        .resource(widget(plural, kind))
        .create();
  }

  static String condition(CustomResourceDefinition crd, String type) {
    return crd.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .findFirst()
        .orElseThrow()
        .getStatus();
  }

  @Test
  void aCustomResourceIsRefusedUntilItsCrdIsCreatedAndEstablished() {
    assertThatThrownBy(() -> createWidget("widgets", "Widget"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(404);
              assertThat(e.getStatus().getMessage())
                  .isEqualTo("the server could not find the requested resource");
            });

    CustomResourceDefinition created =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .resource(crd("widgets", "Widget"))
            .create();

    assertThat(condition(created, "NamesAccepted")).isEqualTo("True");
    assertThat(condition(created, "Established")).isEqualTo("True");
    assertThat(created.getStatus().getAcceptedNames().getKind()).isEqualTo("Widget");
    assertThat(createWidget("widgets", "Widget").getMetadata().getUid()).isNotNull();

    CustomResourceDefinition replaced = crd("widgets", "Widget");
    replaced.getMetadata().setResourceVersion(created.getMetadata().getResourceVersion());
    var updated =
        client.apiextensions().v1().customResourceDefinitions().resource(replaced).update();
    assertThat(condition(updated, "Established")).isEqualTo("True");
  }

  @Test
  void aCrdWhoseKindIsTakenIsNeverEstablishedNorServed() {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd("widgets", "Widget"))
        .create();

    CustomResourceDefinition clash =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .resource(crd("gadgets", "Widget"))
            .create();

    assertThat(condition(clash, "NamesAccepted")).isEqualTo("False");
    assertThat(condition(clash, "Established")).isEqualTo("False");
    assertThat(client.getApiResources("example.com/v1").getResources())
        .extracting(APIResource::getName)
        .containsExactly("widgets");
    assertThatThrownBy(() -> createWidget("gadgets", "Widget"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void volumesAndStorageClassesAreClusterScopedTypes() {
    assertThat(client.getApiResources("v1").getResources())
        .filteredOn(r -> r.getName().equals("persistentvolumes"))
        .singleElement()
        .satisfies(r -> assertThat(r.getNamespaced()).isFalse());
    assertThat(client.getApiResources("storage.k8s.io/v1").getResources())
        .extracting(APIResource::getName)
        .containsExactly("storageclasses");
  }

  @Test
  void aCrdMayTakeAWhileToBeEstablishedAndCreatesAreRecordedInOrder() {
    server.establishAfter(Duration.ofMillis(300));
    var crds = client.apiextensions().v1().customResourceDefinitions();
    CustomResourceDefinition created = crds.resource(crd("widgets", "Widget")).create();
    assertThat(condition(created, "NamesAccepted")).isEqualTo("True");
    assertThat(condition(created, "Established")).isEqualTo("False");
    assertThatThrownBy(() -> createWidget("widgets", "Widget"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition(crds.withName("widgets.example.com").get(), "Established").equals("True")) {
      assertThat(System.nanoTime() - deadline).as("Established in time").isNegative();
      Thread.onSpinWait();
    }
    createWidget("widgets", "Widget");

    assertThat(server.created())
        .containsExactly(
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
            "/apis/example.com/v1/namespaces/ns/widgets/blue");
  }

  @Test
  void listsEvaluateSetBasedLabelSelectorsAsARealServerDoes() {
    for (var e :
        Map.of(
                "web", Map.of("app", "web", "tier", "front"),
                "api", Map.of("app", "api"),
                "db", Map.of("app", "db", "tier", "back"),
                "bare", Map.<String, String>of())
            .entrySet()) {
      client
          .configMaps()
          .inNamespace("ns")
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName(e.getKey())
                  .withLabels(e.getValue())
                  .endMetadata()
                  .build())
          .create();
    }
    var maps = client.configMaps().inNamespace("ns");

    assertThat(names(maps.withLabelIn("app", "web", "api").list().getItems()))
        .containsExactlyInAnyOrder("web", "api");
    // NotIn and DoesNotExist select objects without the label too.
    assertThat(names(maps.withLabelNotIn("app", "web", "api").list().getItems()))
        .containsExactlyInAnyOrder("db", "bare");
    assertThat(names(maps.withoutLabel("tier").list().getItems()))
        .containsExactlyInAnyOrder("api", "bare");
    assertThat(names(maps.withLabel("tier").withLabelNotIn("tier", "back").list().getItems()))
        .containsExactly("web");
    assertThat(names(maps.withLabel("app", "db").withLabelIn("tier", "back").list().getItems()))
        .containsExactly("db");
    assertThat(names(maps.list().getItems())).hasSize(4);
  }

  static java.util.List<String> names(java.util.List<ConfigMap> items) {
    return items.stream().map(c -> c.getMetadata().getName()).toList();
  }

  void pod(String name, String... containers) {
    var spec = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata();
    var containerSpec = spec.withNewSpec();
    for (String c : containers) {
      containerSpec.addNewContainer().withName(c).withImage("busybox").endContainer();
    }
    client.resource(containerSpec.endSpec().build()).create();
  }

  /** Exit code, stdout, stderr of {@code argv} run in {@code container} of pod {@code pod}. */
  record Ran(int code, String out, String err) {}

  Ran exec(String pod, String container, String... argv) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (ExecWatch watch =
        client
            .pods()
            .inNamespace("ns")
            .withName(pod)
            .inContainer(container)
            .writingOutput(out)
            .writingError(err)
            .exec(argv)) {
      int code = watch.exitCode().get(10, TimeUnit.SECONDS);
      return new Ran(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void execRunsTheArgvAsSentInTheNamedContainerAndReturnsItsOutputAndExitCode() throws Exception {
    pod("db", "sidecar", "main");
    List<String> seen = new CopyOnWriteArrayList<>();
    server.onExec(
        (pod, container, argv) -> {
          seen.add(pod.getMetadata().getName() + "/" + container + " " + argv);
          return argv.get(0).equals("fail")
              ? ExecResult.exit(3, "no luck")
              : new ExecResult("flushed\n", "a warning", 0, Duration.ZERO);
        });

    assertThat(exec("db", "main", "/bin/flush", "a b", "$HOME; rm -rf /"))
        .isEqualTo(new Ran(0, "flushed\n", "a warning"));
    assertThat(exec("db", "sidecar", "fail")).isEqualTo(new Ran(3, "", "no luck"));
    assertThat(seen)
        .containsExactly("db/main [/bin/flush, a b, $HOME; rm -rf /]", "db/sidecar [fail]");
  }

  @Test
  void aCommandNoHandlerKnowsFailsAsAMissingExecutableDoes() throws Exception {
    pod("db", "main");

    Ran ran = exec("db", "main", "pg_dump");

    assertThat(ran.code()).isEqualTo(127);
    assertThat(ran.err()).contains("\"pg_dump\": executable file not found");
  }

  @Test
  void aDelayedCommandAnswersOnlyAfterItsDelay() throws Exception {
    pod("db", "main");
    server.onExec((pod, container, argv) -> ExecResult.ok("done").after(Duration.ofMillis(400)));

    long start = System.nanoTime();
    Ran ran = exec("db", "main", "sleep");

    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(400));
    assertThat(ran).isEqualTo(new Ran(0, "done", ""));
  }

  @Test
  void execIntoAMissingPodOrContainerIsRefusedBeforeAnyUpgradeAsARealServerRefusesIt()
      throws Exception {
    pod("db", "main", "sidecar");
    server.onExec((pod, container, argv) -> ExecResult.ok("never"));

    assertThat(rawExec("nope", "&container=main")).isEqualTo("404 pods \"nope\" not found");
    assertThat(rawExec("db", "&container=other"))
        .isEqualTo("400 container other is not valid for pod db");
    assertThat(rawExec("db", ""))
        .isEqualTo(
            "400 a container name must be specified for pod db, choose one of: main sidecar");
    assertThatThrownBy(() -> exec("nope", "main", "true"))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  /** The code and message of a plain GET of the exec URL (fabric8's client looks first itself). */
  private String rawExec(String pod, String container) throws Exception {
    HttpURLConnection c =
        (HttpURLConnection)
            URI.create(
                    server.url()
                        + "/api/v1/namespaces/ns/pods/"
                        + pod
                        + "/exec?command=true&stdout=true"
                        + container)
                .toURL()
                .openConnection();
    try {
      int code = c.getResponseCode();
      return code + " " + new ObjectMapper().readTree(c.getErrorStream()).get("message").asText();
    } finally {
      c.disconnect();
    }
  }
}
