# Installs the resources and desktop integration, and sets up CPack (DEB + TGZ).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/ DESTINATION ${CONCLAVE_INSTALL_RESOURCES_DIR})
install(FILES ${CMAKE_SOURCE_DIR}/packaging/conclave-studio.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/conclave.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/io.conclave.Studio.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/conclave-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME conclave.xml)
# How to deploy `conclave serve` (docs/serve.md): a systemd unit, an image, a Kubernetes StatefulSet.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/serve/conclave-serve@.service ${CMAKE_SOURCE_DIR}/packaging/serve/Dockerfile
        ${CMAKE_SOURCE_DIR}/packaging/serve/kubernetes.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/serve)

set(CPACK_PACKAGE_NAME "conclave")
set(CPACK_PACKAGE_VENDOR "Conclave")
set(CPACK_PACKAGE_CONTACT "Conclave developers <dev@conclave.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Design, run and measure teams of LLM agents")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_INSTALL_DIRECTORY "conclave")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://conclave.invalid")
set(CPACK_STRIP_FILES ON)
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
include(CPack)
