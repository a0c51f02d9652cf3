import pytest


@pytest.fixture(autouse=True)
def clear_caches():
    """Every dashboard test starts and ends with Streamlit's data caches empty (cached runs are keyed on the scenario,
    and a test may break a model on purpose)."""
    st = pytest.importorskip("streamlit")
    st.cache_data.clear()
    yield
    st.cache_data.clear()
