package dev.stele.k8s.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the test API server adds to fabric8's CRUD mock: apply patches, discovery, and CRDs that are
 * Established before their custom resources are served.
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
}
